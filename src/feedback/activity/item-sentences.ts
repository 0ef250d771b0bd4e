/**
 * One readable sentence per item event, e.g. "Max changed the status from planned to shipped"
 * (issue 15). Names come from the caller: the actor's, and the people's as they stood.
 */
import type { ItemEvent } from '../../../commands/item/index.js';
import type { Recorded } from '../../../projections/shared/recorded.js';
import type { ItemView } from './change.js';
import { excerpt, listOf, quoted } from './words.js';

export interface SentenceContext {
  /** who did it (actorWord) */
  who: string;
  /** the person or user an OAuth client acted for, whom `who` names already */
  actingForId?: string;
  /** the channel an agent actor came through (`api:<client>`), which `who` names already */
  agentVia?: string;
  itemKey: string;
  /** a person's display name as it stood at the event, or null */
  personName(personId: string): string | null;
  /** the item just before the event (null before its capture) */
  before: ItemView | null;
}

export function itemSentence(event: Recorded<ItemEvent>, ctx: SentenceContext): string {
  const { who } = ctx;
  switch (event.type) {
    case 'ItemCaptured': {
      const { title, author, via } = event.data;
      const from = author.displayName ?? ctx.personName(author.personId);
      const named = from === who || author.personId === ctx.actingForId;
      const behalf = from && !named ? ` from ${from}` : '';
      // "Claude acting for max submitted …", not "… via api:Claude": the subject names the client
      const through = via && via !== ctx.agentVia ? ` via ${via}` : '';
      return `${who} submitted ${quoted(title)}${behalf}${through}`;
    }
    case 'ItemEdited': {
      const parts: string[] = [];
      const title = event.data.title;
      if (title !== undefined) {
        const was = ctx.before?.title;
        parts.push(
          typeof was === 'string'
            ? `changed the title from ${quoted(was)} to ${quoted(title)}`
            : `changed the title to ${quoted(title)}`,
        );
      }
      if (event.data.body !== undefined) parts.push('edited the body');
      return `${who} ${listOf(parts)}`;
    }
    case 'ItemStatusChanged':
      return `${who} changed the status from ${event.data.from} to ${event.data.to}`;
    case 'ItemTagged': {
      const tagsBefore = (ctx.before?.tagIds as string[] | undefined) ?? [];
      const added = event.data.tagIds.filter((t) => !tagsBefore.includes(t));
      const removed = tagsBefore.filter((t) => !event.data.tagIds.includes(t));
      if (event.data.tagIds.length === 0) return `${who} removed every tag`;
      const parts: string[] = [];
      if (added.length) parts.push(`added the ${tagWord(added)} ${listOf(added)}`);
      if (removed.length) parts.push(`removed the ${tagWord(removed)} ${listOf(removed)}`);
      return parts.length ? `${who} ${listOf(parts)}` : `${who} reordered the tags`;
    }
    case 'ItemReplied': {
      const { authorKind, authorName, body, parentId } = event.data;
      const speaker = authorKind === 'person' ? (authorName ?? who) : who;
      return `${speaker} ${parentId ? 'answered a reply' : 'replied'}: ${quoted(excerpt(body))}`;
    }
    case 'PlusOneAdded': {
      const { personId, addressedTo } = event.data;
      const name = ctx.personName(personId) ?? 'Someone';
      if (addressedTo === ctx.itemKey) return `${name} gave a +1`;
      return `${name} gave a +1 on ${addressedTo}, which lives on in this item`;
    }
    case 'PlusOneWithdrawn': {
      const { personId, addressedTo } = event.data;
      const name = ctx.personName(personId) ?? 'Someone';
      if (addressedTo === ctx.itemKey) return `${name} withdrew their +1`;
      return `${name} withdrew the +1 they gave on ${addressedTo}, which lives on in this item`;
    }
    case 'ItemMergedInto':
      return `${who} merged this item into ${event.data.survivorKey}`;
    case 'ItemsMerged': {
      const keys = event.data.merged.map((m) => m.itemKey);
      const people = new Set(
        event.data.merged.flatMap((m) => m.addedPeople.map((p) => p.personId)),
      );
      return `${who} merged ${listOf(keys)} into this item, bringing ${count(people.size, 'person', 'people')}`;
    }
    case 'ItemsUnmerged': {
      const keys = event.data.unmerged.map((u) => u.itemKey);
      const left = event.data.removedPeople.length;
      return `${who} unmerged ${listOf(keys)} from this item; ${count(left, 'person', 'people')} left with ${keys.length === 1 ? 'it' : 'them'}`;
    }
    case 'ItemUnmerged':
      return `${who} unmerged this item from ${event.data.survivorKey}; it stands on its own again`;
    case 'PeopleNotified': {
      const told = event.data.recipients.filter((r) => r.delivered).length;
      const skipped = event.data.recipients.length - told;
      return `${who} told ${count(told, 'person', 'people')} the item is ${event.data.status}${skipped ? ` (${skipped} skipped)` : ''}`;
    }
    default: {
      const _exhaustive: never = event;
      return `${who} changed the item`;
    }
  }
}

const tagWord = (tags: readonly string[]) => (tags.length === 1 ? 'tag' : 'tags');
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
