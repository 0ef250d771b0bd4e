/**
 * As-of rebuilds the item from the log (src/feedback/activity/timeline.ts). Issue 15: "as-of by
 * revision or by time answering exactly the get_item shape as it stood then", with snapshots
 * allowed for speed. Checked here:
 *  - a person renamed after a revision is shown with the name they had at that revision;
 *  - answers replayed from snapshots equal answers replayed from the start, for an item longer
 *    than several snapshot intervals;
 *  - the latest revision answers what get_item answers now.
 */
import { expect } from 'chai';
import {
  addPlusOne,
  registerPerson,
  replyToItem,
  updateItemStatus,
} from '../../../src/feedback/actions/index.js';
import { createItemTimelines, SNAPSHOT_EVERY } from '../../../src/feedback/activity/timeline.js';
import { getItem } from '../../../projections/items/queries.js';
import { startFeedback } from '../support/harness.js';
import { withPersonIds } from '../../support/person-ids.js';

describe('Rebuilding an item as it stood (e2e)', () => {
  it('shows names as they were, and answers alike from snapshots and from the start', async function () {
    this.timeout(120_000);
    const fb = await startFeedback();
    try {
      const owner = await fb.createMaker('max@acme.io');
      const ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
      await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
      const { itemKey } = await fb.submit(ws, 'APP', { body: 'Dark mode', email: 'a@x.io' });
      const { stores, context } = fb.runtime.runtime;
      const deps = withPersonIds(
        { commandHandler: context.commandHandler, readStore: stores.readStore },
        context.secret,
      );
      const address = { workspaceId: ws.workspaceId, productKey: 'APP', itemKey };
      const person = async (n: number, name: string) =>
        (
          await registerPerson(deps, fb.context(), {
            workspaceId: ws.workspaceId,
            requester: { email: `p${n}@x.io`, displayName: name },
          })
        ).personId;
      const kim = await person(0, 'Kim');
      await addPlusOne(deps, fb.context({ actor: kim }), {
        workspaceId: ws.workspaceId,
        itemKey,
        personId: kim,
      });
      await person(0, 'Kim Lee'); // renamed after revision 1
      const statuses = ['planned', 'in-progress', 'shipped', 'new'] as const;
      for (let i = 0; i < 3 * SNAPSHOT_EVERY; i++) {
        fb.clock.advance(1_000);
        if (i % 3 === 0) {
          const personId = await person(i + 1, `P${i}`);
          await addPlusOne(deps, fb.context(), { workspaceId: ws.workspaceId, itemKey, personId });
        } else if (i % 3 === 1) {
          await replyToItem(deps, fb.context(), {
            ...address,
            body: `reply ${i}`,
            author: { kind: 'maker', id: owner.userId, name: 'Max', avatar: null },
          });
        } else {
          await updateItemStatus(deps, fb.context(), { ...address, status: statuses[i % 4]! });
        }
      }
      await fb.caughtUp();
      const api = fb.api(owner.token);
      const path = `/v1/workspaces/acme-co/products/APP/items/${itemKey}`;

      const then = (await api.get(`${path}/as-of?revision=1`)).body;
      expect(then.participants[1]).to.deep.include({ personId: kim, displayName: 'Kim' });
      const now = (await api.get(path)).body;
      expect(now.participants[1]).to.deep.include({ personId: kim, displayName: 'Kim Lee' });

      const history = (await api.get(`${path}/history?pageSize=200`)).body.items;
      // the auditor's replay: who acted at revision 1 under the name they had then, in the
      // actor and in the sentence alike (as-of above shows the same name)
      const plusOne = history.find((change: { revision: number }) => change.revision === 1);
      expect(plusOne.actor).to.deep.equal({ kind: 'person', id: kim, name: 'Kim' });
      expect(plusOne.summary)
        .to.match(/^Kim /)
        .and.not.match(/^Kim Lee/);
      const last = history.at(-1).revision as number;
      const latest = (await api.get(`${path}/as-of?revision=${last}`)).body;
      const { revision: _r, at: _a, ...latestAnswer } = latest;
      expect(latestAnswer).to.deep.equal(now);

      // the service's timeline has snapshots by now; a fresh one replays from the start
      for (const revision of [
        0,
        SNAPSHOT_EVERY - 1,
        SNAPSHOT_EVERY + 5,
        2 * SNAPSHOT_EVERY + 17,
        last,
      ]) {
        const fresh = createItemTimelines({ eventStore: stores.eventStore });
        let expected: unknown;
        await fresh.replay(ws.workspaceId, itemKey, [revision], async (_r2, store) => {
          const found = await getItem(store, address);
          expected = found && {
            item: found.item,
            replies: found.replies,
            participants: found.participants,
          };
        });
        const res = await api.get(`${path}/as-of?revision=${revision}`);
        const { revision: _x, at: _y, ...answer } = res.body;
        expect(answer, `revision ${revision}`).to.deep.equal(expected);
      }

      // README: as-of `at` answers "exactly the get_item answer as it stood then (people with
      // the names they had then)" — also when a person was renamed after the item's last change
      fb.clock.advance(1_000);
      const beforeRename = fb.clock.now();
      fb.clock.advance(1_000);
      await person(0, 'Kim Lee-Park');
      await fb.caughtUp();
      const renamed = (await api.get(path)).body;
      expect(renamed.participants[1]).to.deep.include({ displayName: 'Kim Lee-Park' });
      const atNow = (await api.get(`${path}/as-of?at=${fb.clock.now()}`)).body;
      const { revision: _n, at: _t, ...nowAnswer } = atNow;
      expect(nowAnswer).to.deep.equal(renamed);
      const atBefore = (await api.get(`${path}/as-of?at=${beforeRename}`)).body;
      expect(atBefore.participants[1]).to.deep.include({ personId: kim, displayName: 'Kim Lee' });
      // a revision is the log at that revision's position: the later rename is not in it
      const atLast = (await api.get(`${path}/as-of?revision=${last}`)).body;
      expect(atLast.participants[1]).to.deep.include({ displayName: 'Kim Lee' });
    } finally {
      await fb.stop();
    }
  });
});
