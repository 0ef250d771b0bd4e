/**
 * The hosted feedback MCP server at {base_url}/mcp, driven by the official MCP SDK client over
 * real HTTP, compared with the same calls over REST.
 *
 * Spec 000: "The same routes are exposed as tools on a hosted MCP server, and each operation id
 * below is also the MCP tool name." Issue 16: "calling list_items, reply_to_item (as an OAuth
 * client: authorKind agent), merge_items, notify_people without confirm (an error result,
 * nothing sent) gives the same results as the REST call".
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import {
  apiClient,
  type FeedbackHarness,
  type Maker,
  startFeedback,
} from '../feedback/support/harness.js';
import { connectClient, firstPartySignIn } from '../feedback/support/oauth.js';
import { callTool, type Connected, connectMcp, envelopeOf } from './support.js';

const PRODUCT = 'APP';

describe('When an assistant uses the hosted feedback MCP server', function () {
  this.timeout(120_000);
  let fb: FeedbackHarness;
  let owner: Maker;
  let mcp: Connected;
  const items = (slug = owner.home.slug) => `/v1/workspaces/${slug}/products/${PRODUCT}/items`;

  before(async () => {
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io');
    await fb.createProduct(owner.home, { key: PRODUCT, name: 'App', visibility: 'public' });
    for (const body of ['Dark mode please', 'Export to CSV', 'Keyboard shortcuts']) {
      await fb.submit(owner.home, PRODUCT, { body, email: `${body.length}@example.com` });
    }
    mcp = await connectMcp(`${fb.url}/mcp`, { token: owner.token });
  });
  after(async () => {
    await mcp?.close();
    await fb?.stop();
  });

  it('lists one tool per operation of the registry, named exactly by its operation id', async () => {
    const { tools } = await mcp.client.listTools();
    const operationIds = fb
      .app()
      .http.operations.map((op) => op.id)
      .sort();
    expect(tools.map((t) => t.name).sort()).to.deep.equal(operationIds);
    // the OpenAPI document names the same operations
    const documented = Object.values(fb.app().http.openapi.paths ?? {}).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).map((op) => op.operationId),
    );
    expect(tools.map((t) => t.name).sort()).to.deep.equal(documented.sort());
    // the instructions say what a call passes in `_meta` (mcp-terms.e2e.test.ts: no header named)
    expect(mcp.client.getInstructions()).to.include(
      "Every tool that writes takes `_meta.idempotencyKey` in the call's `_meta`",
    );
    expect(mcp.client.getInstructions()).to.include('`_meta.ifMatch`');
  });

  it('shows a workspace integration credential only the tools it may call: no admin, no /v1/me', async () => {
    // README: an integration has "a member's rights (never admin operations…)"; a tool it can
    // never call is not listed, as an OAuth app's credential tools are not
    const created = await fb
      .api(owner.token)
      .post(`/v1/workspaces/${owner.home.slug}/integrations`, { name: 'Zendesk sync' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const integration = await connectMcp(`${fb.url}/mcp`, { token: created.body.credential });
    try {
      const names = (await integration.client.listTools()).tools.map((t) => t.name).sort();
      const reachable = fb
        .app()
        .http.operations.filter((op) => !op.meta.admin && !/^\/v1\/me(\/|$)/.test(op.path))
        .map((op) => op.id)
        .sort();
      expect(names).to.deep.equal(reachable);
      expect(names).to.include('list_items').and.not.include('list_webhooks');
      expect(names).to.not.include('update_product');
    } finally {
      await integration.close();
    }
  });

  it('marks reads read-only and writes by their method', async () => {
    const { tools } = await mcp.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('list_items')?.annotations).to.include({
      readOnlyHint: true,
      idempotentHint: true,
    });
    expect(byName.get('reply_to_item')?.annotations).to.include({
      readOnlyHint: false,
      idempotentHint: false,
    });
    expect(byName.get('update_item')?.annotations).to.include({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    // a POST whose description says a repeat changes nothing is hinted idempotent; whether it
    // is destructive too: annotations.e2e.test.ts
    for (const name of ['update_item_status', 'tag_item', 'merge_items', 'notify_people']) {
      expect(byName.get(name)?.annotations, name).to.include({
        readOnlyHint: false,
        idempotentHint: true,
      });
    }
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).to.equal('object');
      if (tool.outputSchema) expect(tool.outputSchema.type, tool.name).to.equal('object');
      // no unused definitions (a named body inlined at the root once stayed as a whole copy)
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        const defs = (schema as { $defs?: Record<string, unknown> } | undefined)?.$defs ?? {};
        for (const name of Object.keys(defs)) {
          const { [name]: _self, ...others } = defs;
          const elsewhere = JSON.stringify({ ...schema, $defs: others });
          expect(elsewhere, `${tool.name} $defs.${name}`).to.include(`"#/$defs/${name}"`);
        }
      }
    }
  });

  it('answers list_items with the body REST answers, as structured content and as text', async () => {
    const rest = await fb.api(owner.token).get(items());
    expect(rest.status).to.equal(200);
    const result = await callTool(mcp, 'list_items', { slug: owner.home.slug, key: PRODUCT });
    expect(result.isError).to.not.equal(true);
    expect(result.structuredContent).to.deep.equal(rest.body);
    const text = result.content[0];
    expect(text?.type === 'text' && JSON.parse(text.text)).to.deep.equal(rest.body);
  });

  it('passes query arguments with their real types (status, pageSize) as REST does', async () => {
    const rest = await fb.api(owner.token).get(`${items()}?status=new&pageSize=2`);
    const result = await callTool(mcp, 'list_items', {
      slug: owner.home.slug,
      key: PRODUCT,
      status: 'new',
      pageSize: 2,
    });
    expect(result.structuredContent).to.deep.equal(rest.body);
    expect((result.structuredContent as { items: unknown[] }).items).to.have.length(2);
  });

  it('answers a value out of bounds with the invalid-argument envelope REST answers', async () => {
    const rest = await fb.api(owner.token).get(`${items()}?pageSize=500`);
    expect(rest.status).to.equal(400);
    const result = await callTool(mcp, 'list_items', {
      slug: owner.home.slug,
      key: PRODUCT,
      pageSize: 500,
    });
    expect(envelopeOf(result)).to.deep.equal(rest.body);
  });

  it('refuses an argument the tool does not take, naming it', async () => {
    const result = await callTool(mcp, 'list_items', {
      slug: owner.home.slug,
      key: PRODUCT,
      page_size: 5,
    });
    const envelope = envelopeOf(result);
    expect(envelope.code).to.equal('invalid-argument');
    expect(envelope.error).to.include('"page_size"');
  });

  it('names a missing or mistyped path argument instead of answering not-found', async () => {
    // the input schema marks slug, key and itemKey required strings; a tool call can leave one
    // out, which a URL never does — "product not found" would send the model looking elsewhere
    const missing = envelopeOf(await callTool(mcp, 'list_items', { slug: owner.home.slug }));
    expect(missing).to.deep.equal({ error: 'key is required', code: 'invalid-argument' });
    const mistyped = envelopeOf(
      await callTool(mcp, 'get_item', { slug: owner.home.slug, key: PRODUCT, itemKey: 17 }),
    );
    expect(mistyped.code).to.equal('invalid-argument');
    expect(mistyped.error).to.match(/^itemKey must be a string/);
    // a well-formed but unknown value is still the REST answer: not found
    const unknown = await callTool(mcp, 'list_items', { slug: owner.home.slug, key: 'ZZZ' });
    expect(envelopeOf(unknown).code).to.equal('not-found');
  });

  it('keeps protocol errors JSON-RPC errors: an unknown tool', async () => {
    const error = await mcp.client.callTool({ name: 'delete_workspace', arguments: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(McpError);
    expect((error as McpError).code).to.equal(-32602);
  });

  describe('When the credential is an ID token or a personal token revoked meanwhile', () => {
    it("accepts the board's own ID token, as REST does", async () => {
      const tokens = await firstPartySignIn(fb, owner.email);
      const viaIdToken = await connectMcp(`${fb.url}/mcp`, { token: tokens.id_token! });
      try {
        const result = await callTool(viaIdToken, 'list_products', { slug: owner.home.slug });
        const rest = await fb
          .api(tokens.id_token!)
          .get(`/v1/workspaces/${owner.home.slug}/products`);
        expect(result.structuredContent).to.deep.equal(rest.body);
      } finally {
        await viaIdToken.close();
      }
    });

    it('refuses the very next request once the token is revoked (spec: "Revocation takes effect at once")', async () => {
      const second = await fb.createToken(owner.userId, { name: 'short-lived' });
      const session = await connectMcp(`${fb.url}/mcp`, { token: second.token });
      try {
        expect(
          (await callTool(session, 'list_products', { slug: owner.home.slug })).isError,
        ).to.not.equal(true);
        const revoked = await fb.api(owner.token).del(`/v1/me/tokens/${second.tokenId}`);
        expect(revoked.status).to.be.within(200, 204);
        const refused = await callTool(session, 'list_products', { slug: owner.home.slug }).then(
          () => null,
          (e: unknown) => e as Error & { code?: number },
        );
        expect(refused?.code, refused?.message).to.equal(401);
        expect(refused?.message).to.include('API token revoked');
      } finally {
        await session.close();
      }
    });
  });

  describe('When the caller is not a member of the workspace', () => {
    it('answers the same not-found error as REST (spec: "A non-member and an unknown slug both get HTTP 404")', async () => {
      const stranger = await fb.createMaker('eve@elsewhere.io');
      const rest = await fb.api(stranger.token).get(items());
      expect(rest.status).to.equal(404);
      const theirs = await connectMcp(`${fb.url}/mcp`, { token: stranger.token });
      try {
        const result = await callTool(theirs, 'list_items', {
          slug: owner.home.slug,
          key: PRODUCT,
        });
        expect(envelopeOf(result)).to.deep.equal(rest.body);
        expect(envelopeOf(result)).to.deep.equal({
          error: 'workspace not found',
          code: 'not-found',
        });
        expect(result._meta?.status).to.equal(404);
        const unknown = await callTool(theirs, 'list_items', { slug: 'no-such-ws', key: PRODUCT });
        expect(envelopeOf(unknown)).to.deep.equal(rest.body);
      } finally {
        await theirs.close();
      }
    });
  });

  describe('When merging items', () => {
    it('merges as REST merges: the same answer and the same survivor', async () => {
      const [a, b, c, d] = await Promise.all(
        ['Offline mode', 'Work offline', 'Dark theme', 'Night mode'].map((body, i) =>
          fb.submit(owner.home, PRODUCT, { body, email: `merge${i}@example.com` }),
        ),
      );
      const rest = await fb
        .api(owner.token)
        .post(`${items()}/${a!.itemKey}/merge`, { mergedKeys: [b!.itemKey] });
      expect(rest.status).to.equal(200);
      const result = await callTool(mcp, 'merge_items', {
        slug: owner.home.slug,
        key: PRODUCT,
        itemKey: c!.itemKey,
        mergedKeys: [d!.itemKey],
      });
      expect(result.isError).to.not.equal(true);
      expect(result.structuredContent).to.deep.equal({
        ...rest.body,
        survivorId: c!.itemKey,
      });
      const viaRest = (await fb.api(owner.token).get(`${items()}/${a!.itemKey}`)).body;
      const viaMcp = (await fb.api(owner.token).get(`${items()}/${c!.itemKey}`)).body;
      expect(viaMcp.participants.length).to.equal(viaRest.participants.length);
      expect(viaMcp.item.plusOneCount).to.equal(viaRest.item.plusOneCount);
    });
  });

  describe('When notify_people is called without confirm', () => {
    it('answers the invalid-argument error REST answers and sends nothing (spec: "without confirm equal to true answers 400 and sends nothing")', async () => {
      const { itemKey } = await fb.submit(owner.home, PRODUCT, {
        body: 'Shipped thing',
        email: 'waiting@example.com',
      });
      await fb
        .api(owner.token)
        .post(`${items()}/${itemKey}/status`, { status: 'shipped' })
        .then((r) => expect(r.status).to.equal(200));
      const rest = await fb.api(owner.token).post(`${items()}/${itemKey}/notify`, {});
      expect(rest.status).to.equal(400);
      const result = await callTool(mcp, 'notify_people', {
        slug: owner.home.slug,
        key: PRODUCT,
        itemKey,
      });
      expect(envelopeOf(result)).to.deep.equal(rest.body);
      const falseConfirm = await callTool(mcp, 'notify_people', {
        slug: owner.home.slug,
        key: PRODUCT,
        itemKey,
        confirm: false,
      });
      expect(envelopeOf(falseConfirm).code).to.equal('invalid-argument');
      const item = (await fb.api(owner.token).get(`${items()}/${itemKey}`)).body.item;
      expect(item.notifiedAt).to.equal(null);
      const followup = await callTool(mcp, 'who_needs_followup', { slug: owner.home.slug });
      const shipped = (followup.structuredContent as { shippedUnnotified: { id: string }[] })
        .shippedUnnotified;
      expect(shipped.map((e) => e.id)).to.include(itemKey);
    });
  });

  describe('When an OAuth client replies through MCP', () => {
    it('records an agent reply carrying the client name and labels the write api:<client name>, as over REST', async () => {
      const connected = await connectClient(fb, {
        email: owner.email,
        name: 'Triage Bot',
        scope: 'openid offline_access',
      });
      const { itemKey } = await fb.submit(owner.home, PRODUCT, {
        body: 'Reply to me',
        email: 'asker@example.com',
      });
      const rest = await apiClient(fb.url, connected.accessToken).post(
        `${items()}/${itemKey}/replies`,
        { body: 'Over REST' },
      );
      expect(rest.status).to.equal(200);
      const agent = await connectMcp(`${fb.url}/mcp`, { token: connected.accessToken });
      try {
        const result = await callTool(agent, 'reply_to_item', {
          slug: owner.home.slug,
          key: PRODUCT,
          itemKey,
          body: 'Over MCP',
        });
        expect(result.isError).to.not.equal(true);
        const replyId = (result.structuredContent as { replyId: string }).replyId;
        const replies = (await fb.api(owner.token).get(`${items()}/${itemKey}/replies`)).body
          .items as { id: string; authorKind: string; authorName: string; authorId: string }[];
        const viaMcp = replies.find((r) => r.id === replyId)!;
        const viaRest = replies.find((r) => r.id === rest.body.replyId)!;
        expect(viaMcp.authorKind).to.equal('agent');
        expect(viaMcp.authorName).to.equal('Triage Bot');
        expect({ ...viaMcp, id: '', body: '', createdAt: 0 }).to.deep.equal({
          ...viaRest,
          id: '',
          body: '',
          createdAt: 0,
        });
        const events = await fb.runtime.runtime.stores.eventStore.readAll();
        const labels = events
          .filter((e) => e.type === 'ItemReplied')
          .filter((e) =>
            [replyId, rest.body.replyId].includes((e.data as { replyId: string }).replyId),
          )
          .map((e) => e.metadata.via);
        expect(labels).to.deep.equal(['api:Triage Bot', 'api:Triage Bot']);
      } finally {
        await agent.close();
      }
    });
  });

  describe('When the token has the service.public scope', () => {
    it('lists exactly submit_feedback, get_public_roadmap and list_public_changelog (issue 12), and a maker tool answers the 403 REST answers', async () => {
      const connected = await connectClient(fb, {
        email: owner.email,
        name: 'Public helper',
        scope: 'openid service.public',
      });
      const pub = await connectMcp(`${fb.url}/mcp`, { token: connected.accessToken });
      try {
        const { tools } = await pub.client.listTools();
        expect(tools.map((t) => t.name).sort()).to.deep.equal([
          'get_public_roadmap',
          'list_public_changelog',
          'submit_feedback',
        ]);
        const roadmap = await callTool(pub, 'get_public_roadmap', {
          slug: owner.home.slug,
          key: PRODUCT,
        });
        const restRoadmap = await apiClient(fb.url, connected.accessToken).get(
          `/v1/public/${owner.home.slug}/${PRODUCT}/roadmap`,
        );
        expect(roadmap.structuredContent).to.deep.equal(restRoadmap.body);
        const rest = await apiClient(fb.url, connected.accessToken).get(items());
        expect(rest.status).to.equal(403);
        const refused = await callTool(pub, 'list_items', { slug: owner.home.slug, key: PRODUCT });
        expect(envelopeOf(refused)).to.deep.equal(rest.body);
        expect(envelopeOf(refused).code).to.equal('permission-denied');
      } finally {
        await pub.close();
      }
    });
  });
});
