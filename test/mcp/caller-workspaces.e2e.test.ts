/**
 * No operation lists a caller's workspaces (spec 000 names every operation; none does), yet every
 * workspace tool takes a `slug`. The hosted feedback MCP server names them in the instructions it
 * answers `initialize` with, read live as every membership is (spec, Authorization model 2:
 * "Every workspace-touching request re-reads the caller's live membership record"), and never to
 * a `service.public` token (rule 2: "Membership never widens such a token").
 */
import { expect } from 'chai';
import type { FeedbackHarness, Maker, Workspace } from '../feedback/support/harness.js';
import { startFeedback } from '../feedback/support/harness.js';
import { connectClient } from '../feedback/support/oauth.js';
import { connectMcp } from './support.js';

describe("When an assistant connects to the hosted feedback MCP server, the instructions name the caller's workspaces", function () {
  this.timeout(120_000);
  let fb: FeedbackHarness;
  let max: Maker;
  let globex: Workspace;

  /** the instructions a fresh SDK client is given at `initialize` with this token */
  async function instructionsFor(token: string): Promise<string> {
    const mcp = await connectMcp(`${fb.url}/mcp`, { token });
    try {
      return mcp.client.getInstructions() ?? '';
    } finally {
      await mcp.close();
    }
  }

  before(async () => {
    fb = await startFeedback();
    max = await fb.createMaker('max@acme.io');
    const ada = await fb.createMaker('ada@globex.io');
    globex = await fb.createWorkspace(ada, { slug: 'globex', name: 'Globex' });
    await fb.addMember(globex, max.userId, 'member');
    await fb.createProduct(max.home, { key: 'APP', name: 'App', visibility: 'public' });
  });
  after(async () => {
    await fb?.stop();
  });

  it('names each workspace of a personal token with its role, by slug; none to a service.public token of the same user', async () => {
    const instructions = await instructionsFor(max.token);
    expect(instructions).to.include(
      `Your workspaces when this session began (slug and your role): \`globex\` (member), \`${max.home.slug}\` (admin).`,
    );
    // a service.public token reaches public products only: its user's memberships stay unsaid
    const connected = await connectClient(fb, {
      email: max.email,
      name: 'Public helper',
      scope: 'openid service.public',
    });
    const narrowed = await instructionsFor(connected.accessToken);
    expect(narrowed).to.include('No tool lists workspaces');
    expect(narrowed).to.not.include('Your workspaces');
    expect(narrowed).to.not.include('globex');
  });

  it('reads the membership live: a workspace the user left is not named at the next initialize', async () => {
    const carl = await fb.createMaker('carl@acme.io');
    await fb.addMember(globex, carl.userId, 'member');
    expect(await instructionsFor(carl.token)).to.include('`globex` (member)');
    await fb.removeMember(globex, carl.userId);
    const after = await instructionsFor(carl.token);
    expect(after).to.not.include('globex');
    expect(after).to.include(`(slug and your role): \`${carl.home.slug}\` (admin).`);
  });

  it('tells a user of no workspace that only the public tools reach anything', async () => {
    const visitor = await fb.createUser('vic@example.com');
    const connected = await connectClient(fb, { email: visitor.email, name: 'Visitor helper' });
    const instructions = await instructionsFor(connected.accessToken);
    expect(instructions).to.include(
      'You belong to no workspace: only submit_feedback, get_public_roadmap and list_public_changelog reach anything, on public products.',
    );
  });

  it('names the one workspace of an integration credential', async () => {
    const created = await fb
      .api(max.token)
      .post(`/v1/workspaces/${max.home.slug}/integrations`, { name: 'Zendesk sync' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const instructions = await instructionsFor(created.body.credential);
    expect(instructions).to.include(`This credential reaches one workspace: \`${max.home.slug}\`.`);
    expect(instructions).to.not.include('globex');
  });
});
