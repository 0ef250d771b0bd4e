/**
 * What a published changelog entry shows once some of the merged items it announced were given
 * back by an unmerge: an unmerge "undoes merges exactly", so the entry no longer answers them.
 *  - They leave its item ids, and the drafted "Also answers: <title> (<KEY>); …." paragraph
 *    (src/feedback/followup/changelog.ts) loses their part — the whole paragraph when none is left.
 *  - The people who were on the item only through them (`departed`: the unmerge's removedPeople)
 *    are no longer counted, and a name shown only for filing or replying on them is no longer
 *    named; the drafted "Requested by …" line is written again from what is left.
 * A body the maker wrote is shown as written: only the drafted paragraphs' shapes are recognised.
 * An entry published before its requesters were kept (no `requestedBy`) keeps its names.
 */
import type { Requester } from '../../commands/changelog/index.js';

const ALSO_ANSWERS = 'Also answers: ';
const NAMED_IN_ACK = 10;

/** "Requested by Ada, Bob and Carol." / "Requested by Ada, Bob and 4 others." / "Requested by 3 people." */
export function acknowledgment(names: readonly string[], count: number): string {
  if (count === 0) return '';
  if (names.length === 0) return `Requested by ${count} ${count === 1 ? 'person' : 'people'}.`;
  const shown = names.slice(0, NAMED_IN_ACK);
  const others = count - shown.length;
  if (others === 0) {
    if (shown.length === 1) return `Requested by ${shown[0]}.`;
    return `Requested by ${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}.`;
  }
  return `Requested by ${shown.join(', ')} and ${others} ${others === 1 ? 'other' : 'others'}.`;
}

export interface PublishedClaims {
  itemIds: string[];
  body: string;
  requestedByNames: string[];
  requestedByCount: number;
  requestedBy?: Requester[];
}

type Shown = Omit<PublishedClaims, 'requestedBy'>;

/** The entry as it may still claim it: without what the unmerges since gave back (above). */
export function stillClaimed(
  entry: PublishedClaims,
  given: { unmerged: readonly string[]; departed: readonly string[] },
): Shown {
  const { requestedBy: _kept, ...published } = entry;
  if (given.unmerged.length === 0 && given.departed.length === 0) return published;
  const gone = new Set(given.unmerged);
  const requesters = requestersNow(entry, gone, new Set(given.departed));
  const ack = acknowledgment(entry.requestedByNames, entry.requestedByCount);
  const ackNow = acknowledgment(requesters.requestedByNames, requesters.requestedByCount);
  return {
    itemIds: entry.itemIds.filter((key) => !gone.has(key)),
    body: entry.body
      .split('\n\n')
      .flatMap((paragraph) => {
        if (ack && paragraph === ack) return ackNow ? [ackNow] : [];
        const parts = answersIn(paragraph, entry.itemIds.slice(1));
        if (!parts) return [paragraph];
        const kept = parts.filter((part) => !gone.has(part.key)).map((part) => part.text);
        return kept.length ? [`${ALSO_ANSWERS}${kept.join('; ')}.`] : [];
      })
      .join('\n\n'),
    ...requesters,
  };
}

/** The names and count without the people who left and the names shown only for items given back. */
function requestersNow(
  entry: PublishedClaims,
  unmerged: ReadonlySet<string>,
  departed: ReadonlySet<string>,
): { requestedByNames: string[]; requestedByCount: number } {
  const { requestedBy, requestedByNames, requestedByCount } = entry;
  if (!requestedBy) return { requestedByNames, requestedByCount };
  const names: string[] = [];
  let named = 0;
  let count = requestedByCount;
  for (const { personId, namedVia } of requestedBy) {
    if (departed.has(personId)) count -= 1;
    if (!namedVia) continue;
    const name = requestedByNames[named++];
    if (name !== undefined && !departed.has(personId) && namedVia.some((k) => !unmerged.has(k)))
      names.push(name);
  }
  return { requestedByNames: names, requestedByCount: Math.max(0, count) };
}

/** The parts of a drafted "Also answers" paragraph, each `<title> (<KEY>)`; null: not one. */
function answersIn(
  paragraph: string,
  mergedKeys: readonly string[],
): { key: string; text: string }[] | null {
  if (!paragraph.startsWith(ALSO_ANSWERS) || !paragraph.endsWith('.') || !mergedKeys.length)
    return null;
  const list = paragraph.slice(ALSO_ANSWERS.length, -1);
  const keys = mergedKeys.map((key) => key.replace('-', '\\-')).join('|');
  const ends = new RegExp(` \\((${keys})\\)(?:; |$)`, 'g');
  const parts: { key: string; text: string }[] = [];
  let from = 0;
  for (const match of list.matchAll(ends)) {
    const end = match.index + match[0].length;
    parts.push({ key: match[1]!, text: list.slice(from, end).replace(/; $/, '') });
    from = end;
  }
  return from === list.length && parts.length ? parts : null;
}
