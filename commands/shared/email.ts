/**
 * The key an e-mail address is known by, everywhere an address names someone: the person of a
 * workspace, a feedback or notes account, a board visitor, an upstream sign-in's `email` claim.
 * Surrounding white space is dropped and letters are lower-cased, so `Ana@Example.com ` and
 * `ana@example.com` are one person; the local part's case is ignored as every mail provider
 * people meet ignores it. Unicode forms are not folded (NFC/NFKC): ids already stored are
 * derived from this key, so folding more would need a migration of those ids.
 */
export function emailKey(address: string): string {
  return address.trim().toLowerCase();
}
