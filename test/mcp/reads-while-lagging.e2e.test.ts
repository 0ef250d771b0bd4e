/**
 * While the read models lag (a projector held on an item event, as a long rebuild or a stuck
 * projector holds them), a request is answered from what they hold: README (Security,
 * Revocation) has each authenticated request bring the read models up to the changes to
 * credentials and memberships in the log — only those. The audit found every request refused at
 * authentication while they lagged — a REST read, a new MCP POST — with HTTP 503 and only "the
 * read models did not reach position …": authentication waited for the log's head. A write still
 * waits PROJECTION_WAIT_MS for its own position and answers 503 saying the change was made
 * (README, How a request is served). A change to credentials or memberships the read models lack
 * holds back only the requests it concerns (README, Security, Revocation: a request waits for
 * its own credential's revocation and its own memberships): another user's new or revoked token,
 * another workspace's new member, held every request until it was applied and had them all
 * refused 503 while the projector was stuck; a revocation of the caller's own token is refused
 * 401 at once, and a change of its own membership still waits, then refuses it saying what
 * happened and what to do.
 */
import { expect } from 'chai';
import * as actions from '../../src/feedback/actions/index.js';
import { createFeedbackService } from '../../src/feedback/service.js';
import { gatedProjector, withProjector } from '../support/gated-projector.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';
import { callTool, connectMcp } from './support.js';

const WAIT_MS = 300;

describe('While the read models lag behind an item event (e2e)', function () {
  this.timeout(60_000);
  const gate = gatedProjector('stallprobe', 'item-');
  let t: TestRuntime;
  let token: string;
  let userId: string;
  /** mine too, revoked while the read models lag */
  let spare: { token: string; tokenId: string };
  /** a second member of stall-team, removed while the read models lag */
  let colleague: { userId: string; token: string };
  let workspaceId: string;
  const base = () => t.url('feedback');
  const bearer = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const submit = (body: string) =>
    fetch(`${base()}/v1/public/stall-team/STL/feedback`, {
      method: 'POST',
      headers: bearer(),
      body: JSON.stringify({ body }),
    });

  before(async () => {
    t = await startTestRuntime([withProjector(createFeedbackService(), gate.projector)], {
      PROJECTION_WAIT_MS: String(WAIT_MS),
    });
    const { runtime } = t;
    const deps = {
      commandHandler: runtime.context.commandHandler,
      readStore: runtime.stores.readStore,
    };
    const context = { actor: null, now: Date.now() };
    ({ userId } = await actions.createUser(deps, context, {
      email: 'lag@example.com',
      displayName: 'Lag',
    }));
    ({ workspaceId } = await actions.createWorkspace(deps, context, {
      slug: 'stall-team',
      name: 'Stall',
      ownerId: userId,
    }));
    await actions.createProduct(deps, context, {
      workspaceId,
      key: 'STL',
      name: 'Stall',
      visibility: 'public',
    });
    ({ token } = await actions.createToken(deps, context, { ownerId: userId, name: 'cli' }));
    spare = await actions.createToken(deps, context, { ownerId: userId, name: 'spare' });
    const other = await actions.createUser(deps, context, {
      email: 'colleague@example.com',
      displayName: 'Colleague',
    });
    await actions.addMember(deps, context, { workspaceId, userId: other.userId, role: 'member' });
    colleague = {
      userId: other.userId,
      token: (await actions.createToken(deps, context, { ownerId: other.userId, name: 'c' })).token,
    };
    await runtime.context.waitFor(await runtime.stores.eventStore.headPosition());
    // the first item event holds every projector from here on
    const first = await submit('Held at the gate');
    expect(first.status, await first.text()).to.equal(503);
    await gate.reached;
  });
  after(async () => {
    gate.release();
    await t?.stop();
  });

  it('answers a REST read from what the read models hold', async () => {
    const res = await fetch(`${base()}/v1/workspaces/stall-team/products/STL/items`, {
      headers: bearer(),
    });
    const body = await res.text();
    expect(res.status, body).to.equal(200);
    // what they hold: the items read model applied the held event before the gate's projector
    expect(JSON.parse(body).items).to.be.an('array');
  });

  it('answers a new MCP session its tools/list and a read tool call', async () => {
    const mcp = await connectMcp(`${base()}/mcp`, { token });
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((tool) => tool.name)).to.include('list_items');
      const result = await callTool(mcp, 'list_items', { slug: 'stall-team', key: 'STL' });
      expect(result.isError, JSON.stringify(result)).to.not.equal(true);
      expect((result.structuredContent as { items?: unknown }).items).to.be.an('array');
    } finally {
      await mcp.close();
    }
  });

  it('answers a write 503 after PROJECTION_WAIT_MS for its own position, saying the change was made', async () => {
    const started = performance.now();
    const res = await submit('Made while the read models lag');
    const body = (await res.json()) as { error: string };
    expect(res.status, JSON.stringify(body)).to.equal(503);
    expect(performance.now() - started).to.be.at.least(WAIT_MS - 20);
    expect(res.headers.get('retry-after')).to.match(/^\d+$/);
    expect(body.error).to.match(/^the change was made, but cannot be answered yet/);
  });

  const commandDeps = () => ({
    commandHandler: t.runtime.context.commandHandler,
    readStore: t.runtime.stores.readStore,
  });
  const listItems = (credential: string) =>
    fetch(`${base()}/v1/workspaces/stall-team/products/STL/items`, {
      headers: { authorization: `Bearer ${credential}` },
    });

  it("answers at once while another user's new and revoked token and another workspace's new member are not in the read models", async () => {
    const deps = commandDeps();
    const context = { actor: null, now: Date.now() };
    // appended after the held item event, as the CLI's commands would be
    const { userId: stranger } = await actions.createUser(deps, context, {
      email: 'stranger@example.com',
      displayName: 'Stranger',
    });
    await actions.createWorkspace(deps, context, {
      slug: 'else-team',
      name: 'Else',
      ownerId: stranger,
    });
    // a colleague's (the stranger's could not be made: the read models lack its membership)
    const theirs = await actions.createToken(deps, context, {
      ownerId: colleague.userId,
      name: 'x',
    });
    await actions.revokeToken(deps, context, {
      tokenId: theirs.tokenId,
      byUserId: colleague.userId,
    });
    const started = performance.now();
    const res = await listItems(token);
    expect(res.status, await res.text()).to.equal(200);
    expect(performance.now() - started, 'not held for PROJECTION_WAIT_MS').to.be.below(WAIT_MS);
    const mcp = await connectMcp(`${base()}/mcp`, { token });
    try {
      const result = await callTool(mcp, 'list_items', { slug: 'stall-team', key: 'STL' });
      expect(result.isError, JSON.stringify(result)).to.not.equal(true);
    } finally {
      await mcp.close();
    }
  });

  it('refuses my own token at once (401) once revoked, though the read models lack the revocation', async () => {
    const deps = commandDeps();
    const context = { actor: null, now: Date.now() };
    await actions.revokeToken(deps, context, { tokenId: spare.tokenId, byUserId: userId });
    // and one made and revoked since the read models stopped: they know neither
    const late = await actions.createToken(deps, context, { ownerId: userId, name: 'late' });
    await actions.revokeToken(deps, context, { tokenId: late.tokenId, byUserId: userId });
    for (const credential of [spare.token, late.token]) {
      const started = performance.now();
      const res = await listItems(credential);
      const body = (await res.json()) as { error: string };
      expect(res.status, JSON.stringify(body)).to.equal(401);
      expect(body.error).to.include('revoked');
      expect(performance.now() - started, 'not held for PROJECTION_WAIT_MS').to.be.below(WAIT_MS);
    }
    const mcp = await fetch(`${base()}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${spare.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status, await mcp.text()).to.equal(401);
  });

  it('refuses a request whose own membership changed while that change is not in the read models, saying nothing was done and when to retry; others go on', async () => {
    const deps = commandDeps();
    const context = { actor: null, now: Date.now() };
    // appended after the held item event, as the CLI's remove-member would be
    await actions.removeMember(deps, context, { workspaceId, userId: colleague.userId });
    const res = await listItems(colleague.token);
    const body = (await res.json()) as { error: string };
    expect(res.status, JSON.stringify(body)).to.equal(503);
    expect(res.headers.get('retry-after')).to.match(/^\d+$/);
    expect(body.error)
      .to.match(/^the credential cannot be checked yet: a change to tokens, accounts or workspace/)
      .and.to.include('nothing was done — send the request again after the seconds Retry-After');
    const mine = await listItems(token);
    expect(mine.status, await mine.text()).to.equal(200);
  });
});
