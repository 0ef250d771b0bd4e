/**
 * Spec (Item.title): "when the submitter left it blank, derived from the opening of the body at
 * capture". We take the first line with a visible character, collapse whitespace, and cut at a word boundary
 * so the derived title reads like something a person wrote.
 */
const MAX_DERIVED = 80;

export function deriveTitle(body: string): string {
  const line =
    body
      .split(/\r?\n/)
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .find((l) => /[^\s\p{Cf}]/u.test(l)) ?? '';
  if (line.length <= MAX_DERIVED) return line;
  const cut = line.slice(0, MAX_DERIVED);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_DERIVED / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
