/**
 * The plain read models of both services. The search indexes are not among them: their
 * projectors are built by each service's search over its embedder (search-indexes.ts names
 * them; `rebuild` builds them with an embedder of its own, src/cli/verbs/rebuild-search.ts).
 */
import { feedbackProjectors } from './feedback.js';
import { notesProjectors } from './notes.js';
import type { Projector } from './shared/projector.js';

export function allProjectors(): Projector[] {
  return [...feedbackProjectors(), ...notesProjectors()];
}
