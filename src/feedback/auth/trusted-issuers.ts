/**
 * TRUSTED_ID_TOKEN_ISSUERS (a JSON array of {issuer, jwksUrl, audience}) as the auth module's
 * TrustedIssuer list. loadConfig already refused a malformed value, so a parse failure here is a
 * programming error, reported at start-up, never per request.
 */
import { z } from 'zod';
import { AuthConfigurationError, type TrustedIssuer } from '../../auth/index.js';

const Entries = z.array(
  z.object({
    issuer: z.string().min(1),
    jwksUrl: z.string().min(1),
    audience: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  }),
);

export function trustedIssuersFrom(value: string | undefined): TrustedIssuer[] {
  if (!value) return [];
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new AuthConfigurationError('TRUSTED_ID_TOKEN_ISSUERS is not JSON');
  }
  const parsed = Entries.safeParse(json);
  if (!parsed.success) {
    throw new AuthConfigurationError(
      'TRUSTED_ID_TOKEN_ISSUERS must be a JSON array of {issuer, jwksUrl, audience}',
    );
  }
  // the issuer is compared verbatim with the token's `iss`, as OIDC Core §3.1.3.7 requires
  return parsed.data.map(({ issuer, jwksUrl, audience }) => ({ issuer, jwksUrl, audience }));
}
