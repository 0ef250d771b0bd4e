/** Scopes in words for the consent page; an unknown scope is shown as its name. */
const WORDS: Record<string, string> = {
  openid: 'Confirm who you are',
  profile: 'See your name',
  email: 'See your e-mail address',
  offline_access: 'Stay connected when you are not using it (refresh its access)',
  'service.public': 'Post feedback and read public roadmaps on your behalf (nothing else)',
  notes: 'Read and change your notes, tags and devices',
};

export function describeScopes(scopes: string[], fullAccessWording: string | null): string[] {
  const words = scopes
    .filter((s) => s !== 'openid' || scopes.length === 1)
    .map((s) => WORDS[s] ?? s);
  // feedback: no resource scope means the full maker surface, which must be said out loud
  const hasDataScope = scopes.some(
    (s) => !['openid', 'profile', 'email', 'offline_access'].includes(s),
  );
  return hasDataScope || fullAccessWording === null ? words : [fullAccessWording, ...words];
}
