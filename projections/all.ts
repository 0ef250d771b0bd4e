/**
 * The plain read models of both services: what `rebuild` rebuilds. The search indexes are left
 * out on purpose: they belong to a running service (its embedder fills them) and rebuild
 * themselves when the embedding provider changes.
 */
import { feedbackProjectors } from './feedback.js';
import { notesProjectors } from './notes.js';
import type { Projector } from './shared/projector.js';

export function allProjectors(): Projector[] {
  return [...feedbackProjectors(), ...notesProjectors()];
}
