import { Unauthenticated as DomainUnauthenticated } from '../../commands/shared/errors.js';

/**
 * A credential that is missing, malformed, expired, revoked or from an untrusted issuer. It is the
 * shared domain error (so every service maps it to 401) plus the RFC 6750 code for the header.
 */
export class Unauthenticated extends DomainUnauthenticated {
  override readonly name = 'Unauthenticated';
  constructor(
    message: string,
    /** RFC 6750 / RFC 9449 error code for the WWW-Authenticate header */
    readonly oauthError:
      | 'invalid_token'
      | 'invalid_request'
      | 'invalid_dpop_proof' = 'invalid_token',
    /** the scheme the challenge names: DPoP when a DPoP-bound token or its proof was refused */
    readonly scheme: 'Bearer' | 'DPoP' = 'Bearer',
  ) {
    super(message);
  }
}

/** The auth module was given options it cannot work with; raised at start-up, never per request. */
export class AuthConfigurationError extends Error {
  override readonly name = 'AuthConfigurationError';
}
