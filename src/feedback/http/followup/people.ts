/** list_people, search_people, get_person (spec "Read", "Person summary", "Person record"). */
import { z } from 'zod';
import { NotFound } from '../../../../commands/shared/errors.js';
import { listPeople, toPersonSummary } from '../../../../projections/people/queries.js';
import {
  cursorParam,
  howToPage,
  limitParam,
  pageOf,
  pageSizeParam,
  searchQueryParam,
} from '../../../http/registry.js';
import { getPersonRecord } from '../../followup/person.js';
import { searchPeople } from '../../search/queries.js';
import type { FeedbackSearch } from '../../search/search.js';
import { PersonId, PersonSummary, WorkspaceParams } from '../schemas.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';
import { PersonRecord, PersonSearchHit } from './schemas.js';
import { accessOf } from './shared.js';

const CursorPayload = z.object({ after: z.string().min(1) });

export function peopleOperations(
  deps: FeedbackHttpDeps,
  search: FeedbackSearch,
): FeedbackOperation[] {
  const listPeopleOp = defineFeedbackOp({
    id: 'list_people',
    method: 'get',
    path: '/v1/workspaces/{slug}/people',
    summary: 'List the people of a workspace, newest first',
    tags: ['People'],
    params: WorkspaceParams,
    query: z.object({ cursor: cursorParam(), pageSize: pageSizeParam({ max: 200, default: 50 }) }),
    response: pageOf(PersonSummary),
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription: `${howToPage()} The cursor is opaque and stable: people who arrive during a walk never shift it; an edited cursor answers 400.`,
    async handler(ctx) {
      const { workspaceId } = accessOf(ctx.access);
      const scope = `people:${workspaceId}`;
      const { cursor, pageSize } = ctx.query;
      const after = cursor ? deps.cursors.decodeAs(cursor, CursorPayload, { scope }).after : null;
      const page = await listPeople(deps.readStore, { workspaceId, after, limit: pageSize });
      return {
        body: {
          items: page.people.map(toPersonSummary),
          nextCursor: page.nextAfter
            ? deps.cursors.encode({ after: page.nextAfter }, { scope })
            : null,
        },
      };
    },
  });

  const searchPeopleOp = defineFeedbackOp({
    id: 'search_people',
    throttled: 'searches',
    method: 'get',
    path: '/v1/workspaces/{slug}/people/search',
    summary: 'Find people by their name, e-mail and the topics they raised',
    tags: ['People'],
    params: WorkspaceParams,
    query: z.object({
      q: searchQueryParam(200),
      limit: limitParam({ max: 50, default: 10 }),
    }),
    response: z.object({ hits: z.array(PersonSearchHit) }).strict(),
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription:
      "Hybrid (by meaning and by words, as search_items): a person's score is the best of their name and e-mail address (each part of it a word: `nakamura`, `globex` find k.nakamura@globex.example) against `q` and of the items they submitted, +1'd or replied to against `q` (score in [0, 1], higher is closer). Not paged. New people and items are found by their words as soon as the write has answered, by meaning about a second later.",
    async handler(ctx) {
      const { workspaceId } = accessOf(ctx.access);
      const hits = await searchPeople(deps.readStore, search, { workspaceId, ...ctx.query });
      return { body: { hits } };
    },
  });

  const getPersonOp = defineFeedbackOp({
    id: 'get_person',
    method: 'get',
    path: '/v1/workspaces/{slug}/people/{personId}',
    summary: 'A person with their items and whether they are waiting for an answer',
    tags: ['People'],
    params: WorkspaceParams.extend({ personId: PersonId }),
    response: PersonRecord,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription:
      '`awaitingReply` is derived on each request: true when, on an item with status new, planned or in-progress (not merged) that the person is on, the latest speech — the submission or a reply — is theirs. Replies by a maker or an agent answer; a +1 is not speech; a later reply by another person makes that person the one waiting. A question left unanswered on an open item that was then merged away waits on the survivor until a maker or an agent replies there. `openItemCount` counts their items with status new, planned or in-progress.',
    async handler(ctx) {
      const { workspaceId } = accessOf(ctx.access);
      const record = await getPersonRecord(deps.readStore, {
        workspaceId,
        personId: ctx.params.personId,
      });
      if (!record) throw new NotFound('person not found');
      return { body: record };
    },
  });

  return [listPeopleOp, searchPeopleOp, getPersonOp];
}
