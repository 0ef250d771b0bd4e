/**
 * The order a person expects of names in a list: "Äpfel" beside "apple", "Éclair" beside
 * "eclair2", "Zürich" after "zeta" — not after every ASCII letter, as code units put them
 * (Unicode audit). Case and accents only break ties; digits compare as numbers; then the id.
 */
const collator = new Intl.Collator('en', { numeric: true });

export function byName(a: { name: string; id: string }, b: { name: string; id: string }): number {
  return collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
