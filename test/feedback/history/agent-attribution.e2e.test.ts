/**
 * Who an OAuth client acted for, in item history, the audit trail and the messages webhooks and
 * the event feed carry, over real HTTP with a real OAuth client (openid-client) and the MCP SDK
 * client.
 *
 * Spec 000, Attribution labels: "Writes are labelled with `via` on the activity entry … OAuth
 * access token | `api:<client name>`"; Reply: "A reply posted with an OAuth access token is
 * recorded with `authorKind` `agent` and carries the client's name". DESIGN: auditors read
 * "every change … with actor, credential label (`via`)": the label says through what, and the
 * actor must still say who — the user the client acted for, not only the client.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { connectClient } from '../support/oauth.js';
import { callTool, type Connected, connectMcp } from '../../mcp/support.js';

interface Actor {
  kind: string;
  id: string | null;
  name: string | null;
  actingFor?: { kind: string; id: string; name: string | null };
}
interface ChangeBody {
  type: string;
  actor: Actor;
  via?: string;
  summary: string;
}

describe('When an OAuth client acts for a maker', function () {
  this.timeout(120_000);
  let fb: FeedbackHarness;
  let owner: Maker;
  let mcp: Connected;
  let itemPath: string;
  const forMax = () => ({ kind: 'maker', id: owner.userId, name: 'max' });

  before(async () => {
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io');
    await fb.createProduct(owner.home, { key: 'APP', name: 'App', visibility: 'public' });
    const { itemKey } = await fb.submit(owner.home, 'APP', { body: 'Dark mode please' });
    itemPath = `/v1/workspaces/${owner.home.slug}/products/APP/items/${itemKey}`;
    const claude = await connectClient(fb, { email: 'max@acme.io', name: 'Claude' });
    const status = await fb.api(claude.accessToken).post(`${itemPath}/status`, {
      status: 'planned',
    });
    expect(status.status, JSON.stringify(status.body)).to.equal(200);
    const cursor = await connectClient(fb, { email: 'max@acme.io', name: 'Cursor' });
    mcp = await connectMcp(`${fb.url}/mcp`, { token: cursor.accessToken });
    const replied = await callTool(mcp, 'reply_to_item', {
      slug: owner.home.slug,
      key: 'APP',
      itemKey,
      body: 'On our list',
    });
    expect(replied.isError, JSON.stringify(replied)).to.not.equal(true);
  });
  after(async () => {
    await mcp?.close();
    await fb?.stop();
  });

  it('names the client and the maker it acted for in the item history, the label unchanged', async () => {
    const { items } = (await fb.api(owner.token).get(`${itemPath}/history`)).body as {
      items: ChangeBody[];
    };
    const byAgents = items.filter((c) => c.actor.kind === 'agent');
    expect(
      byAgents.map(({ type, actor, via, summary }) => ({ type, actor, via, summary })),
    ).to.deep.equal([
      {
        type: 'ItemStatusChanged',
        actor: { kind: 'agent', id: owner.userId, name: 'Claude', actingFor: forMax() },
        via: 'api:Claude',
        summary: 'Claude acting for max changed the status from new to planned',
      },
      {
        type: 'ItemReplied',
        actor: { kind: 'agent', id: owner.userId, name: 'Cursor', actingFor: forMax() },
        via: 'api:Cursor',
        summary: 'Cursor acting for max replied: “On our list”',
      },
    ]);
  });

  it('names them the same way in the audit trail', async () => {
    const res = await fb
      .api(owner.token)
      .get(`/v1/workspaces/${owner.home.slug}/audit?via=${encodeURIComponent('api:Claude')}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const changes = res.body.items as ChangeBody[];
    expect(changes.map((c) => [c.summary, c.actor.actingFor])).to.deep.equal([
      ['Claude acting for max changed the status from new to planned', forMax()],
    ]);
  });

  it('names them in the event feed’s messages, which webhooks deliver', async () => {
    const res = await fb
      .api(owner.token)
      .get(`/v1/workspaces/${owner.home.slug}/events?types=item.status_changed,item.replied`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const messages = res.body.items as { type: string; data: { actor: Actor; via?: string } }[];
    expect(messages.map((m) => [m.type, m.data.actor, m.data.via])).to.deep.equal([
      [
        'item.status_changed',
        { kind: 'agent', id: owner.userId, name: 'Claude', actingFor: forMax() },
        'api:Claude',
      ],
      [
        'item.replied',
        { kind: 'agent', id: owner.userId, name: 'Cursor', actingFor: forMax() },
        'api:Cursor',
      ],
    ]);
  });

  it('names the person an OAuth client of someone outside the workspace filed for', async () => {
    // README: "someone outside it who files through `submit_feedback` is the person the item is
    // from, as on the board" — also when their assistant files it
    const eve = await fb.createMaker('eve@else.io');
    const helper = await connectClient(fb, {
      email: 'eve@else.io',
      scope: 'openid service.public',
      name: 'Eve’s helper',
    });
    const filed = await fb
      .api(helper.accessToken)
      .post(`/v1/public/${owner.home.slug}/APP/feedback`, { body: 'Offline mode, please' });
    expect(filed.status, JSON.stringify(filed.body)).to.equal(200);
    const path = `/v1/workspaces/${owner.home.slug}/products/APP/items/${filed.body.itemId}`;
    const { items } = (await fb.api(owner.token).get(`${path}/history`)).body as {
      items: ChangeBody[];
    };
    const person = items[0]!.actor.id!;
    expect(person).to.not.equal(eve.userId);
    expect(items[0]).to.deep.include({
      actor: {
        kind: 'agent',
        id: person,
        name: 'Eve’s helper',
        actingFor: { kind: 'person', id: person, name: 'eve' },
      },
      via: 'api:Eve’s helper',
    });
    // who filed it is said once: not "… acting for eve submitted … from eve", nor the client
    // twice ("… via api:Eve’s helper" when the subject is that client, issue h142 item 4)
    expect(items[0]!.summary).to.equal(
      'Eve’s helper acting for eve submitted “Offline mode, please”',
    );
  });

  it('gives no other actor an actingFor', async () => {
    const { items } = (await fb.api(owner.token).get(`${itemPath}/history`)).body as {
      items: ChangeBody[];
    };
    const own = items.filter((c) => c.actor.kind !== 'agent');
    expect(own.length).to.be.greaterThan(0);
    for (const change of own) expect(change.actor).to.not.have.property('actingFor');
  });
});
