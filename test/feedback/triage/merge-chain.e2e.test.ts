/**
 * Merge chains over real HTTP: A merged into B, then B into C. Spec, Triage rule 1:
 * "`merge_items` folds the listed duplicates into the item in the path; that item is the
 * survivor and keeps the +1s and the people" — so what B took from A lives on in C, and whatever
 * follows a merge from A (a refusal naming where it went, a +1 given on it, its board page) leads
 * to C, the end of the chain, not to B, which is itself merged. The refusals named B, and the
 * board's +1 on A was counted against B.
 */
import { expect } from 'chai';
import { callTool, connectMcp, envelopeOf } from '../../mcp/support.js';
import { BoardVisitor, field } from '../board/support.js';
import type { Api } from '../support/harness.js';
import { type Board, item, startBoard } from './board.js';

describe('A merge chain: A merged into B, then B into C (e2e)', () => {
  let board: Board;
  let api: Api;
  const keys = { a: '', b: '', c: '', d: '' };

  before(async () => {
    board = await startBoard();
    const { fb, ws } = board;
    api = fb.api(board.member.token);
    for (const [name, who] of [
      ['a', 'ann'],
      ['b', 'bo'],
      ['c', 'cy'],
      ['d', 'di'],
    ] as const) {
      const submitted = await fb.submit(ws, 'APP', {
        body: `${who} wants a night theme`,
        email: `${who}@x.io`,
        displayName: who,
      });
      keys[name] = submitted.itemKey;
    }
    const first = await api.post(`${item(keys.b)}/merge`, { mergedKeys: [keys.a] });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const second = await api.post(`${item(keys.c)}/merge`, { mergedKeys: [keys.b] });
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    await api.post(`${item(keys.c)}/status`, { status: 'shipped' });
  });
  after(() => board.fb.stop());

  const refusal = (error: string) => ({ error, code: 'invalid-argument' });
  const throughB = () => `${keys.a} was merged into ${keys.c} (through ${keys.b})`;

  describe('When a write is sent to A', () => {
    it('refuses it naming C, the end of the chain, and the item it went through', async () => {
      const writes: [string, () => ReturnType<Api['post']>][] = [
        ['update_item', () => api.patch(item(keys.a), { title: 'Dark theme' })],
        ['update_item_status', () => api.post(`${item(keys.a)}/status`, { status: 'planned' })],
        ['tag_item', () => api.post(`${item(keys.a)}/tags`, { tagIds: ['ui'] })],
        ['reply_to_item', () => api.post(`${item(keys.a)}/replies`, { body: 'Thanks!' })],
        [
          'reply_to_item with a parentId',
          () => api.post(`${item(keys.a)}/replies`, { body: 'Thanks!', parentId: 'r1' }),
        ],
      ];
      for (const [op, write] of writes) {
        const res = await write();
        expect(res.status, `${op}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body, op).to.deep.equal(refusal(throughB()));
      }
      // B was merged straight into C: its refusal names C alone, as before
      const onB = await api.post(`${item(keys.b)}/status`, { status: 'planned' });
      expect(onB.body).to.deep.equal(refusal(`${keys.b} was merged into ${keys.c}`));
    });

    it('refuses notify_people, draft_changelog_entry and merge_items naming C too', async () => {
      const notify = await api.post(`${item(keys.a)}/notify`, { confirm: true });
      expect(notify.body).to.deep.equal(refusal(`${throughB()}; notify the people of ${keys.c}`));
      const changelog = await api.post(`${item(keys.a)}/changelog`, {});
      expect(changelog.body).to.deep.equal(refusal(`${throughB()}; announce ${keys.c} instead`));
      const already = refusal(`${keys.a} was already merged into ${keys.c} (through ${keys.b})`);
      const intoD = await api.post(`${item(keys.d)}/merge`, { mergedKeys: [keys.a] });
      expect(intoD.body).to.deep.equal(already);
      const ontoA = await api.post(`${item(keys.a)}/merge`, { mergedKeys: [keys.d] });
      expect(ontoA.body).to.deep.equal(already);
    });

    it('answers an MCP tool call as REST answers it (the tools share the actions)', async () => {
      const mcp = await connectMcp(`${board.fb.url}/mcp`, { token: board.member.token });
      try {
        const called = await callTool(mcp, 'update_item_status', {
          slug: 'acme-co',
          key: 'APP',
          itemKey: keys.a,
          status: 'planned',
        });
        expect(envelopeOf(called)).to.deep.equal(refusal(throughB()));
      } finally {
        await mcp.close();
      }
    });
  });

  describe('When a visitor opens or +1s A on the public board', () => {
    const boardPath = '/acme-co/APP';
    const count = async (key: string) =>
      (await api.get(item(key))).body.item.plusOneCount as number;

    it('redirects A and B to C, at the line there naming B (the item A came through)', async () => {
      const visitor = new BoardVisitor(board.fb.url);
      for (const key of [keys.a, keys.b]) {
        const res = await visitor.get(`${boardPath}/items/${key}`);
        expect(res.status, key).to.equal(302);
        expect(res.headers.get('location'), key).to.equal(
          `${board.fb.url}${boardPath}/items/${keys.c}#merged-${keys.b}`,
        );
      }
      const page = await visitor.get(`${boardPath}/items/${keys.c}`);
      expect(page.text).to.include(`id="merged-${keys.b}"`);
    });

    it('counts the +1 on C, the survivor that keeps the +1s, and answers C', async () => {
      const visitor = new BoardVisitor(board.fb.url);
      const page = await visitor.get(`${boardPath}/items/${keys.c}`); // the board's cookie
      const csrf = field(page.text, 'csrf');
      const before = { b: await count(keys.b), c: await count(keys.c) };
      const pressed = await visitor.post(
        `${boardPath}/items/${keys.a}/plus-one`,
        { back: 'item', csrf },
        { json: true },
      );
      expect(pressed.status, pressed.text).to.equal(200);
      const answer = JSON.parse(pressed.text);
      expect(answer.itemId).to.equal(keys.c);
      expect(answer.plusOneCount).to.equal(before.c + 1);
      expect(answer.plusOned).to.equal(true);
      expect(await count(keys.c)).to.equal(before.c + 1);
      expect(await count(keys.b)).to.equal(before.b);
      // pressed again it is withdrawn from C, where it was counted (the button showed it given)
      const again = await visitor.post(
        `${boardPath}/items/${keys.a}/plus-one`,
        { back: 'item', csrf: answer.csrf },
        { json: true },
      );
      expect(again.status, again.text).to.equal(200);
      expect(JSON.parse(again.text)).to.include({ itemId: keys.c, plusOneCount: before.c });
    });
  });
});
