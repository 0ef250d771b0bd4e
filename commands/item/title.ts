/**
 * Spec (Item.title): "when the submitter left it blank, derived from the opening of the body at
 * capture". We take the first line with a visible character, collapse whitespace, and cut at a word boundary
 * so the derived title reads like something a person wrote.
 */
import { characters, cutAt, showsCharacter, withoutBidiControls } from '../shared/text.js';

const MAX_DERIVED = 80;

export function deriveTitle(body: string): string {
  const line =
    body
      .split(/\r?\n/)
      // a title is one line a title may hold: bidirectional controls of the body are left out
      .map((l) => withoutBidiControls(l).replace(/\s+/g, ' ').trim())
      .find(showsCharacter) ?? '';
  if (characters(line) <= MAX_DERIVED) return line;
  // cut between characters: half of an emoji's surrogate pair is no text any strict reader takes
  const cut = cutAt(line, MAX_DERIVED);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_DERIVED / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
