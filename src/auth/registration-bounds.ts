/**
 * How much one registration may store. oidc-provider keeps every metadata field it knows as the
 * client sent it (client_name, client_uri, logo_uri, policy_uri, tos_uri, jwks_uri, scope,
 * redirect_uris, contacts, …) with no bound of its own, and registration is open: a client_uri of
 * 55,000 characters was accepted and kept (resource-growth audit). So, before oidc-provider sees
 * the registration (RFC 7591 §3.2.2 errors, 400, naming the field):
 *
 *  - the whole body at most 16 KB (REGISTRATION_BODY_MAX_KB; a real client sends well under 1 KB);
 *  - `client_name` at most 200 characters (as a product's name: it is shown on the consent page
 *    and labels every write the client makes, `api:<client name>`);
 *  - any other text value, and each entry of a list, at most 2,048 characters: the longest
 *    parameter an authorization request may carry (authorization-limit.ts), so a longer
 *    redirect URI could never be used anyway;
 *  - a list at most 10 entries.
 *
 * A redirect URI that breaks a bound is `invalid_redirect_uri`, anything else
 * `invalid_client_metadata`. Language-tagged fields (`client_name#fr`) are bounded as their field.
 */
import { PARAMETER_MAX_CHARS } from './authorization-limit.js';

/** the registration body's limit in KB (the JSON parser's): a larger one is refused whole */
export const REGISTRATION_BODY_MAX_KB = 16;
/** longest `client_name` */
export const CLIENT_NAME_MAX_CHARS = 200;
/** longest other text value, and longest entry of a list */
export const METADATA_VALUE_MAX_CHARS = PARAMETER_MAX_CHARS;
/** most entries of a list (redirect_uris, contacts, …) */
export const METADATA_LIST_MAX_ENTRIES = 10;

export interface MetadataRefusal {
  error: 'invalid_client_metadata' | 'invalid_redirect_uri';
  error_description: string;
}

const refusal = (field: string, description: string): MetadataRefusal => ({
  error: field === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata',
  error_description: description,
});

/** in characters (code points), as the authorization request's parameters are counted */
const chars = (text: string) => [...text].length;

/** The first bound a registration's metadata breaks, or null when it keeps them all. */
export function oversizeMetadata(body: Record<string, unknown>): MetadataRefusal | null {
  for (const [sent, value] of Object.entries(body)) {
    const key = sent.slice(0, 64);
    const field = key.split('#')[0] as string;
    if (typeof value === 'string') {
      const max = field === 'client_name' ? CLIENT_NAME_MAX_CHARS : METADATA_VALUE_MAX_CHARS;
      if (chars(value) > max) return refusal(field, `${key} is longer than ${max} characters`);
    } else if (Array.isArray(value)) {
      if (value.length > METADATA_LIST_MAX_ENTRIES)
        return refusal(field, `${key} has more than ${METADATA_LIST_MAX_ENTRIES} entries`);
      const long = value.findIndex(
        (entry) => typeof entry === 'string' && chars(entry) > METADATA_VALUE_MAX_CHARS,
      );
      if (long >= 0)
        return refusal(
          field,
          `${key}[${long}] is longer than ${METADATA_VALUE_MAX_CHARS} characters`,
        );
    }
  }
  return null;
}
