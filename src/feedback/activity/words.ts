/** Small helpers for the activity sentences. */
import { characters, cutAt } from '../../../commands/shared/text.js';

/** "a", "a and b", "a, b and c" */
export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A value quoted for a sentence, cut to a readable length. */
export function quoted(text: string): string {
  return `“${excerpt(text, 80)}”`;
}

/** The opening of a text on one line, at most `max` characters. */
export function excerpt(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return characters(line) <= max ? line : `${cutAt(line, max - 1).trimEnd()}…`;
}
