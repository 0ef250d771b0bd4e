/**
 * One item's life, built over real HTTP where the API has the operation (capture, edit, status,
 * tags, maker and agent replies, merge, notify) and through the actions where it has none (a
 * person's reply, +1s). After every write the test records what get_item answered at that moment,
 * so as-of can be compared with it revision by revision.
 *
 * The clock moves 10 s between writes, so every revision has its own `occurredAt`.
 */
import { expect } from 'chai';
import { addPlusOne, registerPerson, replyToItem } from '../../../src/feedback/actions/index.js';
import { connectClient } from '../support/oauth.js';
import {
  type ApiResponse,
  type FeedbackHarness,
  type Maker,
  type StartOptions,
  startFeedback,
  type Workspace,
} from '../support/harness.js';

export const SLUG = 'acme-co';
export const STEP_MS = 10_000;
export const itemPath = (itemKey: string) =>
  `/v1/workspaces/${SLUG}/products/${itemKey.split('-')[0]}/items/${itemKey}`;

export interface Story {
  fb: FeedbackHarness;
  ws: Workspace;
  owner: Maker;
  member: Maker;
  outsider: Maker;
  agentToken: string;
  ann: string;
  dee: string;
  /** get_item's answer right after revision r of APP-1 was written, by r */
  answers: unknown[];
  /** the `via` and actor kind each revision of APP-1 was written with */
  expected: { type: string; kind: string; via?: string }[];
}

export async function tellStory(options: StartOptions = {}): Promise<Story> {
  const fb = await startFeedback(options);
  const owner = await fb.createMaker('max@acme.io', 'laptop');
  const member = await fb.createMaker('mia@acme.io', 'cli');
  const outsider = await fb.createMaker('eve@else.io', 'assistant');
  const ws = await fb.createWorkspace(owner, { slug: SLUG, name: 'Acme' });
  await fb.addMember(ws, member.userId, 'member');
  await fb.createProduct(ws, { key: 'APP', name: 'Acme App', visibility: 'public' });
  const agent = await connectClient(fb, { email: 'max@acme.io', name: 'Claude' });
  const api = fb.api(owner.token);
  const deps = () => fb.deps();
  const answers: unknown[] = [];
  const expected: Story['expected'] = [];
  const ok = (res: ApiResponse, what: string) =>
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201]);
  const record = async (type: string, kind: string, via?: string) => {
    const res = await api.get(itemPath('APP-1'));
    ok(res, 'get_item');
    answers.push(res.body);
    expected.push({ type, kind, ...(via ? { via } : {}) });
    fb.clock.advance(STEP_MS);
  };

  ok(
    await api.post(`/v1/public/${SLUG}/APP/feedback`, {
      body: 'The white background hurts at night',
      title: 'Dark mode',
      email: 'ann@customer.io',
      displayName: 'Ann',
    }),
    'capture',
  );
  await record('ItemCaptured', 'maker', 'pat:laptop');
  ok(await api.patch(itemPath('APP-1'), { title: 'Dark mode for the board' }), 'edit');
  await record('ItemEdited', 'maker', 'pat:laptop');
  ok(await api.post(`${itemPath('APP-1')}/status`, { status: 'planned' }), 'status');
  await record('ItemStatusChanged', 'maker', 'pat:laptop');
  ok(await api.post(`${itemPath('APP-1')}/tags`, { tagIds: ['ux', 'mobile'] }), 'tags');
  await record('ItemTagged', 'maker', 'pat:laptop');
  ok(await api.post(`${itemPath('APP-1')}/replies`, { body: 'On our list' }), 'maker reply');
  await record('ItemReplied', 'maker', 'pat:laptop');
  ok(
    await fb.api(agent.accessToken).post(`${itemPath('APP-1')}/replies`, { body: 'Noted by AI' }),
    'agent reply',
  );
  await record('ItemReplied', 'agent', 'api:Claude');

  // Ann answers from the board (no API operation replies as a person): her own actor id
  const ann = (
    await registerPerson(deps(), fb.context(), {
      workspaceId: ws.workspaceId,
      requester: { email: 'ann@customer.io' },
    })
  ).personId;
  const annReply = await replyToItem(deps(), fb.context({ actor: ann }), {
    workspaceId: ws.workspaceId,
    productKey: 'APP',
    itemKey: 'APP-1',
    body: 'Thank you!',
    author: { kind: 'person', id: ann, name: 'Ann', avatar: null },
  });
  await fb.caughtUp(annReply.position);
  await record('ItemReplied', 'person');

  // a duplicate from Bo with a +1 from Cy, merged in
  ok(
    await api.post(`/v1/public/${SLUG}/APP/feedback`, {
      body: 'Night theme please',
      email: 'bo@customer.io',
      displayName: 'Bo',
    }),
    'duplicate',
  );
  const cy = await registerPerson(deps(), fb.context(), {
    workspaceId: ws.workspaceId,
    requester: { email: 'cy@customer.io', displayName: 'Cy' },
  });
  const cyPlus = await addPlusOne(deps(), fb.context(), {
    workspaceId: ws.workspaceId,
    itemKey: 'APP-2',
    personId: cy.personId,
  });
  await fb.caughtUp(cyPlus.position);
  ok(await api.post(`${itemPath('APP-1')}/merge`, { mergedKeys: ['APP-2'] }), 'merge');
  await record('ItemsMerged', 'maker', 'pat:laptop');

  ok(await api.post(`${itemPath('APP-1')}/status`, { status: 'shipped' }), 'ship');
  await record('ItemStatusChanged', 'maker', 'pat:laptop');
  ok(await api.post(`${itemPath('APP-1')}/notify`, { confirm: true }), 'notify');
  await record('PeopleNotified', 'maker', 'pat:laptop');

  // Dee +1s the merged duplicate: it lands on the survivor
  const dee = (
    await registerPerson(deps(), fb.context(), {
      workspaceId: ws.workspaceId,
      requester: { email: 'dee@customer.io', displayName: 'Dee' },
    })
  ).personId;
  const deePlus = await addPlusOne(deps(), fb.context({ actor: dee }), {
    workspaceId: ws.workspaceId,
    itemKey: 'APP-2',
    personId: dee,
  });
  await fb.caughtUp(deePlus.position);
  await record('PlusOneAdded', 'person');

  return {
    fb,
    ws,
    owner,
    member,
    outsider,
    agentToken: agent.accessToken,
    ann,
    dee,
    answers,
    expected,
  };
}
