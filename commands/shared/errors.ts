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
  | 'resource-exhausted'
  | 'unavailable';

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
/**
 * The service cannot take the request now but will soon (the read models lag behind a write, a
 * burst on one aggregate outlasted its retry deadline): retry after `retryAfterSeconds`.
 */
export class Unavailable extends DomainError {
  readonly kind = 'unavailable';
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(message);
  }
}

const BY_KIND: Record<
  Exclude<DomainErrorKind, 'resource-exhausted' | 'unavailable'>,
  new (
    message: string,
  ) => DomainError
> = {
  'invalid-argument': InvalidArgument,
  unauthenticated: Unauthenticated,
  'permission-denied': PermissionDenied,
  'not-found': NotFound,
  'failed-precondition': FailedPrecondition,
  'already-exists': AlreadyExists,
  conflict: Conflict,
};

/** A fresh error of `kind` carrying `message` (an operation answering one refusal as another). */
export function errorOfKind(kind: DomainErrorKind, message: string): DomainError {
  if (kind === 'resource-exhausted') return new ResourceExhausted(message);
  if (kind === 'unavailable') return new Unavailable(message);
  return new BY_KIND[kind](message);
}
