/**
 * Whether the encoder's vector of a query means anything. The bundled encoder's vocabulary is
 * English: a text in a script it lacks (Cyrillic, Greek, CJK, Hangul, …) is one unknown token to
 * it, and any two such texts get nearly the same vector — "квантовая физика" scored 0.94 against
 * a shopping list and a doctor's appointment (Unicode audit), past every weak-match threshold.
 * Such a query is ranked by its words alone (lexical-index.ts folds and splits those scripts).
 * Other providers are trusted: nothing was measured against them.
 */
import { ENERGETIC_PROVIDER } from './energetic-embedder.js';

/** the share of a query's letters that must be Latin for the bundled encoder to read it */
const LATIN_SHARE = 0.5;

export function encoderReads(provider: string, query: string): boolean {
  if (provider !== ENERGETIC_PROVIDER) return true;
  const letters = query.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return true;
  const latin = query.match(/\p{Script=Latin}/gu)?.length ?? 0;
  return latin / letters >= LATIN_SHARE;
}
