/**
 * The hosted feedback MCP server read as an assistant reads it, over real HTTP with the SDK
 * client: what it is told before its first call (instructions, output schemas) and the errors it
 * gets for arguments a URL could never carry — each enough to make the next call right.
 *
 * Spec 000, Paging 1: "A response carries `nextCursor`; pass it back as `cursor` for the next
 * page. It is null at the end." Addressing: "The public page of a product is
 * `<public_host>/<slug>/<key>`. No other addressing scheme exists."
 */
import { expect } from 'chai';
import { callTool, envelopeOf, feedbackMcpWithItem } from './support.js';

describe('When an assistant starts on the hosted feedback MCP server', function () {
  this.timeout(60_000);
  const world = feedbackMcpWithItem();

  it('is told where a workspace slug comes from, since no tool lists workspaces, and how to page', async () => {
    const { mcp, args } = world;
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => /workspaces/.test(n))).to.deep.equal([]);
    const instructions = mcp.client.getInstructions() ?? '';
    expect(instructions).to.include('No tool lists workspaces');
    expect(instructions).to.include('`<board host>/<slug>/<key>`');
    // a cursor belongs to the filters it was issued with (its refusal says so too)
    expect(instructions).to.include(
      'pass it back unchanged as `cursor`, with the same filters, for the next page',
    );
    // the way the instructions give works: an item key leads to its workspace, then its products
    const resolved = await callTool(mcp, 'resolve_item', { itemKey: args.itemKey });
    const { matches } = resolved.structuredContent as { matches: { slug: string }[] };
    expect(matches.map((m) => m.slug)).to.deep.equal([args.slug]);
    const products = await callTool(mcp, 'list_products', { slug: matches[0]!.slug });
    const { items } = products.structuredContent as { items: { id: string }[] };
    expect(items.map((p) => p.id)).to.deep.equal([args.key]);
  });

  it("is told by every paged tool's output schema how to get the next page", async () => {
    const { mcp } = world;
    const paged = (await mcp.client.listTools()).tools.filter(
      (t) => (t.inputSchema.properties as Record<string, unknown>).cursor !== undefined,
    );
    expect(paged.map((t) => t.name)).to.include.members([
      'list_items',
      'get_item_history',
      'list_audit_events',
      'list_webhook_deliveries',
    ]);
    const silent = paged
      .filter((t) => {
        const next = t.outputSchema?.properties?.nextCursor as { description?: string } | undefined;
        return !/next page/.test(next?.description ?? '');
      })
      .map((t) => t.name);
    expect(silent, 'paged tools whose nextCursor does not say how to page').to.deep.equal([]);
  });

  it('hints openWorldHint on exactly the tools that send to a webhook URL outside the service', async () => {
    // MCP ToolAnnotations: "openWorldHint: If true, this tool may interact with an 'open world'
    // of external entities. If false, the tool's domain of interaction is closed."
    const { fb, mcp } = world;
    const open = (await mcp.client.listTools()).tools
      .filter((t) => t.annotations?.openWorldHint !== false)
      .map((t) => t.name)
      .sort();
    const sending = [
      'create_webhook',
      'recover_webhook',
      'redeliver_webhook',
      'send_test_webhook',
      'update_webhook',
    ];
    expect(open).to.deep.equal(sending);
    // the OpenAPI document says the same, for clients generated from it
    const documented = Object.values(fb.app().http.openapi.paths ?? {})
      .flatMap((item) => Object.values(item as Record<string, Record<string, unknown>>))
      .filter((op) => op['x-open-world'] === true)
      .map((op) => op.operationId)
      .sort();
    expect(documented).to.deep.equal(sending);
  });

  it('names every missing path argument in one sentence', async () => {
    const { mcp, args } = world;
    const none = envelopeOf(await callTool(mcp, 'list_items', {}));
    expect(none).to.deep.equal({ error: 'slug and key are required', code: 'invalid-argument' });
    const three = envelopeOf(await callTool(mcp, 'get_item', {}));
    expect(three.error).to.equal('slug, key and itemKey are required');
    const one = envelopeOf(await callTool(mcp, 'get_item', { slug: args.slug, key: args.key }));
    expect(one.error).to.equal('itemKey is required');
  });

  it('refuses an array for an argument that takes one value as such, not as a repeated query parameter', async () => {
    const { fb, owner, mcp, args } = world;
    // over REST an array is the parameter sent twice, and REST says so
    const rest = await fb
      .api(owner.token)
      .get(`/v1/workspaces/${args.slug}/products/${args.key}/items?status=new&status=planned`);
    expect(rest.body).to.deep.equal({
      error: 'status must be given only once',
      code: 'invalid-argument',
    });
    // a tool argument is typed JSON: nothing was "given twice"
    const listed = await callTool(mcp, 'list_items', {
      slug: args.slug,
      key: args.key,
      status: ['new', 'planned'],
    });
    expect(envelopeOf(listed)).to.deep.equal({
      error: 'status must be one value, not an array',
      code: 'invalid-argument',
    });
    const searched = await callTool(mcp, 'search_items', {
      slug: args.slug,
      key: args.key,
      q: ['dark', 'mode'],
      limit: [1],
    });
    expect(envelopeOf(searched).error).to.equal(
      'q must be one value, not an array; limit must be one value, not an array',
    );
  });
});
