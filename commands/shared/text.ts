import { InvalidArgument } from './errors.js';

/**
 * Characters as the spec's limits count them, and as the HTTP schemas (zod) and the OpenAPI
 * `maxLength` do: code points. `String.length` counts UTF-16 units, so an emoji would count twice
 * and a text the schema accepted could be refused here.
 */
export function characters(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff) continue;
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      count -= 1;
      i += 1;
    }
  }
  return count;
}

/**
 * The first `max` characters (code points) of a text: a cut never leaves half of a surrogate
 * pair, which no strict JSON or UTF-8 consumer accepts (an emoji at the cut is left out whole).
 */
export function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  let units = 0;
  for (let kept = 0; kept < max && units < text.length; kept++) {
    const unit = text.charCodeAt(units);
    const next = text.charCodeAt(units + 1);
    units += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, units);
}

/** A text of at most `max` characters. */
export function textUpTo(text: string, field: string, max: number): string {
  if (characters(text) > max)
    throw new InvalidArgument(`${field} must be at most ${max} characters`);
  return text;
}

/**
 * Something a reader can see: not only white space, invisible format characters (U+200B),
 * characters meant to be ignored (variation selectors, Hangul fillers U+3164), combining marks
 * with nothing to sit on, or the blank Braille pattern (U+2800) — all of which render empty.
 */
const VISIBLE = /[^\s\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** Whether `text` shows at least one character (VISIBLE). */
export function showsCharacter(text: string): boolean {
  return VISIBLE.test(text);
}

/**
 * A search's text as it is searched: trimmed, and '' when it shows nothing (showsCharacter) —
 * a `q` of only spaces or of zero-width and format characters (U+200B, U+FEFF, U+00AD, U+2060)
 * names nothing to look for. The one place every search (search_items, search_people,
 * summarize_feedback, search_notes, the board's) decides it was given nothing.
 */
export function searchedText(q: string): string {
  return showsCharacter(q) ? q.trim() : '';
}

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): within a name
 * or title they reorder whatever is shown after it — the service's own sentences around it (a
 * changelog's "Requested by …"), the product's name beside an item's title in a page's title.
 * Right-to-left text needs none of them: its letters carry their direction.
 */
export const BIDI_CONTROL_RANGE = '\u202A-\u202E\u2066-\u2069';
const BIDI_CONTROLS = new RegExp(`[${BIDI_CONTROL_RANGE}]`, 'gu');
const HAS_BIDI_CONTROL = new RegExp(`[${BIDI_CONTROL_RANGE}]`, 'u');

/** `text` without bidirectional controls (BIDI_CONTROLS), for a name or title made from it. */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

function requireVisible(text: string, field: string): string {
  if (!VISIBLE.test(text)) throw new InvalidArgument(`${field} must contain a visible character`);
  return text;
}

/**
 * A name as shown in lists and pickers, already normalised: required, at most `max` characters,
 * no control characters (NUL, line breaks, tabs) and at least one visible character — a name of
 * only zero-width or format characters (U+200B, U+FEFF) looks empty wherever it is shown.
 */
export function nameText(text: string, field: string, max: number): string {
  return requireVisible(lineText(requiredText(text, field, max), field, max), field);
}

/**
 * A name learnt from elsewhere (a submitter's form, an identity provider's claim, an imported
 * ticket), made showable rather than refused — refusing would lose the feedback it came with:
 * control characters become spaces, bidirectional controls are dropped, and a name with nothing
 * visible is no name (null).
 */
export function tidyName(text: string | null | undefined): string | null {
  const name = withoutBidiControls((text ?? '').replace(/\p{Cc}+/gu, ' ')).trim();
  return VISIBLE.test(name) ? name : null;
}

/**
 * A text shown on one line, possibly empty: at most `max` characters, no control characters and
 * no bidirectional controls.
 */
export function lineText(text: string, field: string, max: number): string {
  if (/\p{Cc}/u.test(text)) {
    throw new InvalidArgument(`${field} must not contain control characters (line breaks, tabs)`);
  }
  if (HAS_BIDI_CONTROL.test(text)) {
    throw new InvalidArgument(
      `${field} must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069): they reorder the text shown after it`,
    );
  }
  return textUpTo(text, field, max);
}

/** Prose, possibly empty: at most `max` characters, no control characters but line breaks and tabs. */
export function proseText(text: string, field: string, max: number): string {
  if (/(?![\t\n\r])\p{Cc}/u.test(text)) {
    throw new InvalidArgument(
      `${field} must not contain control characters other than line breaks and tabs`,
    );
  }
  return textUpTo(text, field, max);
}

/** Prose someone wrote to be read (a body, a reply): proseText with a visible character. */
export function readableText(text: string, field: string, max: number): string {
  return requireVisible(proseText(text, field, max), field);
}

/**
 * Prose a field may leave empty (a changelog entry's body: "0 to 50000 chars") but, when it holds
 * something, readableText: an entry with no body is a title alone, one of only spaces or U+200B
 * shows readers nothing where its text should be.
 */
export function emptyOrReadableText(text: string, field: string, max: number): string {
  return text === '' ? text : readableText(text, field, max);
}

/** A required text field, already normalised: refused when empty or longer than `max`. */
export function requiredText(text: string, field: string, max: number): string {
  if (text.length === 0) throw new InvalidArgument(`${field} is required`);
  return textUpTo(text, field, max);
}

/** `\p{Cs}` with the u flag matches only an unpaired surrogate; a pair is one code point */
const LONE = /\p{Cs}/u;

/**
 * Whether a text — or any string or key of a parsed JSON value, walked without recursion
 * (nesting may be deep) — holds half of a surrogate pair: valid JSON escapes (`"\ud83d"`) that
 * are no character, refused wherever text comes in (json-body.ts, the CLI's import file).
 */
export function holdsLoneSurrogate(body: unknown): boolean {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (LONE.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const entry of value) pending.push(entry);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, entry] of Object.entries(value)) {
        if (LONE.test(key)) return true;
        pending.push(entry);
      }
    }
  }
  return false;
}
