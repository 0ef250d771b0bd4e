/**
 * What a published changelog entry shows once some of the merged items it announced were given
 * back by an unmerge: an unmerge "undoes merges exactly", so the entry no longer answers them.
 * They leave its item ids, and the drafted "Also answers: <title> (<KEY>); …." paragraph
 * (src/feedback/followup/changelog.ts) loses their part — the whole paragraph when none is left.
 * A body the maker wrote is shown as written: only the drafted paragraph's shape is recognised.
 */

const ALSO_ANSWERS = 'Also answers: ';

export function withoutUnmerged(
  entry: { itemIds: string[]; body: string },
  unmerged: readonly string[],
): { itemIds: string[]; body: string } {
  if (unmerged.length === 0) return entry;
  const gone = new Set(unmerged);
  return {
    itemIds: entry.itemIds.filter((key) => !gone.has(key)),
    body: entry.body
      .split('\n\n')
      .flatMap((paragraph) => {
        const parts = answersIn(paragraph, entry.itemIds.slice(1));
        if (!parts) return [paragraph];
        const kept = parts.filter((part) => !gone.has(part.key)).map((part) => part.text);
        return kept.length ? [`${ALSO_ANSWERS}${kept.join('; ')}.`] : [];
      })
      .join('\n\n'),
  };
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
