/** The rules of the close-the-loop operations as their OpenAPI descriptions state them. */

export const FOLLOWUP_RULES = [
  'Derived at read time over every product of the workspace; nothing here is stored.',
  "- `shippedUnnotified`: status shipped and no notify_people recorded since it last shipped (`notifiedAt` null, or set by a call recorded before that status change, also when both carry the same millisecond; a call that found nobody eligible counts, as nobody could be told), or since a merge brought it people nobody told it shipped (a duplicate's people whom its own notification did not reach). Longest waiting first.",
  '- `stalePromises`: status planned or in-progress with no status change for more than STALE_PROMISE_DAYS days (configuration, default 30). Stalest first.',
  "- `repliesOwed`: open items (new, planned, in-progress) whose last speaker — the submitter when nobody replied yet, else the author of the latest reply — is a person rather than a maker or an agent, or into which an open thread ending with a person's question was merged and no maker or agent replied since (the merged item is read-only, so they wait on the survivor): exactly the threads on which get_person reports someone `awaitingReply`. Longest waiting first.",
  'Items merged into another item are not listed.',
].join('\n');

export const NOTIFY_RULES = [
  'Refused with 400 `invalid-argument` unless `confirm` is exactly `true` (missing, false or the string "true" are refused), and then nothing is recorded. The gate cannot be disabled.',
  "Records, as an event, who should hear about the shipped item: its requesters — submitter, +1s and people who replied, including those of merged items — and sets the item's `notifiedAt`. No mail leaves: `delivered` means eligible (the person has a verified e-mail address: tier `email` or `google`), not that anything arrived. An address merely typed in (an unverified person, tier `anonymous`) is never eligible.",
  "Skipped requesters carry a `reason`: `anonymous` (no address), `unverified` (an address nobody proved), `no-email`, `already-notified` (already told about this status), `unknown-person`. A `message` of only spaces is recorded as no message; one holding a control character other than line breaks and tabs (NUL, an escape sequence) is refused with 400 `invalid-argument`, as a reply's body is, and nothing is recorded. Repeating the call is safe: people already told are skipped, so nobody is counted twice; so are the people of a shipped duplicate merged into this shipped item whom the duplicate's own notification told. The first call after the item shipped is recorded even when nobody is eligible (`notified` 0): it sets `notifiedAt`, so the item leaves `shippedUnnotified`, since there is nobody the service could tell; after that, a call with nobody new to tell records nothing.",
  'An item that is not shipped, or that was merged into another item, is refused with 400 `invalid-argument` and nothing is recorded.',
].join('\n\n');

export const CHANGELOG_RULES = [
  'Returns a headline (the item title), a body (the item body, the merged duplicates it also answers, and an acknowledgment line such as "Requested by Ada, Bob and 3 others.") and the requesters: `requestedByCount` counts everyone on the item and the items merged into it (submitter, +1s, repliers); `requestedByNames` lists those with a display name.',
  '`title` and `body` replace the drafted ones; `title` is trimmed first, and one of only spaces is refused with 400. A given `body` may hold line breaks and tabs but no other control character, and may be empty (the entry is then its title alone) but not of only spaces or invisible characters (U+200B, U+FEFF), which shows readers nothing (400 either way, for a draft as on publish). Nothing is written unless `publish` is true; then the public changelog entry is written (one per item: publishing again revises it, the same text changes nothing) and `publishedId` is its id.',
  'Only a shipped item can be announced: any other status, or an item merged into another one, is refused with 400 `invalid-argument`.',
].join('\n\n');
