/**
 * Typed domain errors. Deciders, command handlers and queries throw these; one place per service
 * (src/http/errors.ts) maps them onto that service's envelope and HTTP status. Never throw strings.
 */
export type DomainErrorKind =
  | 'invalid-argument'
  | 'unauthenticated'
  | 'permission-denied'
  | 'not-found'
  | 'failed-precondition'
  | 'already-exists'
  | 'conflict'
  | 'resource-exhausted';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
}

export class InvalidArgument extends DomainError {
  readonly kind = 'invalid-argument';
}
export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated';
}
export class PermissionDenied extends DomainError {
  readonly kind = 'permission-denied';
}
export class NotFound extends DomainError {
  readonly kind = 'not-found';
}
/** The aggregate is not in a state that allows the command (e.g. merging an already-merged item). */
export class FailedPrecondition extends DomainError {
  readonly kind = 'failed-precondition';
}
export class AlreadyExists extends DomainError {
  readonly kind = 'already-exists';
}
/** A concurrent writer won and retrying did not help, or an If-Match did not match. */
export class Conflict extends DomainError {
  readonly kind = 'conflict';
}
export class ResourceExhausted extends DomainError {
  readonly kind = 'resource-exhausted';
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
