/**
 * Which app made and which replaced each archived version of a note, as REST, the hosted MCP
 * server and the local one (stdio) show it: the same history, read from the note's events, which
 * record the app every change came through (`via: oauth:<client_id>`).
 *
 * Spec 001: "An archived earlier version of a note, readable through the history endpoint. Its
 * fields: not shown." — so the version may say who made it; "PUT … the replaced version is
 * archived first and readable from the history endpoint". Access is per user, so the user is
 * always the note's owner: what tells changes apart is the app (the OAuth client).
 */
import { expect } from 'chai';
import { type NotesE2e, type SignedIn, startNotesE2e } from '../notes/e2e/support.js';
import { callTool, type Connected, connectLocal, connectMcp } from './support.js';

const clientIdOf = (s: SignedIn) => s.config.clientMetadata().client_id;

describe('When a note was changed through several apps', function () {
  this.timeout(120_000);
  let notes: NotesE2e;
  let phone: SignedIn;
  let assistant: SignedIn;
  let local: Connected;
  let hosted: Connected;

  before(async () => {
    notes = await startNotesE2e();
    phone = await notes.signIn('ann@example.com', { clientName: 'Ann phone app' });
    assistant = await notes.signIn('ann@example.com', { clientName: 'Local assistant' });
    local = await connectLocal(notes.base, assistant.token);
    hosted = await connectMcp(`${notes.base}/mcp`, { token: phone.token });
  });
  after(async () => {
    await local?.close();
    await hosted?.close();
    await notes?.stop();
  });

  it('each archived version names the app that made it and the app whose PUT replaced it, on REST and both MCP servers alike', async () => {
    const api = notes.api(phone.token);
    const tag = (await api('POST', '/v1/tags', { name: 'groceries' })).body;
    const created = (await api('POST', '/v1/notes', { content: 'Buy milk' })).body;
    // the assistant replaces the phone's version, then tags the new one
    const put = await callTool(local, 'update_note', { id: created.id, content: 'Buy oat milk' });
    expect(put.isError, JSON.stringify(put)).to.not.equal(true);
    const tagged = await callTool(local, 'add_note_tag', { id: created.id, tagId: tag.id });
    expect(tagged.isError, JSON.stringify(tagged)).to.not.equal(true);
    // the phone replaces that one
    expect(
      (await api('PUT', `/v1/notes/${created.id}`, { content: 'Buy rice milk' })).status,
    ).to.equal(200);

    const phoneApp = { clientId: clientIdOf(phone), clientName: 'Ann phone app' };
    const assistantApp = { clientId: clientIdOf(assistant), clientName: 'Local assistant' };
    const rest = await api('GET', `/v1/notes/${created.id}/history`);
    expect(rest.status).to.equal(200);
    const shown = rest.body.versions.map((v: Record<string, unknown>) => ({
      content: v.content,
      madeBy: v.madeBy,
      replacedBy: v.replacedBy,
    }));
    expect(shown).to.deep.equal([
      // made by the assistant's PUT and last changed by its tag: the assistant's
      { content: 'Buy oat milk', madeBy: assistantApp, replacedBy: phoneApp },
      { content: 'Buy milk', madeBy: phoneApp, replacedBy: assistantApp },
    ]);
    // the tools answer the REST body, checked by the SDK client against their outputSchema
    for (const [which, server] of [
      ['local', local],
      ['hosted', hosted],
    ] as const) {
      const answer = await callTool(server, 'get_note_history', { id: created.id });
      expect(answer.isError, `${which}: ${JSON.stringify(answer)}`).to.not.equal(true);
      expect(answer.structuredContent, which).to.deep.equal(rest.body);
      const tool = (await server.client.listTools()).tools.find(
        (t) => t.name === 'get_note_history',
      );
      expect(JSON.stringify(tool?.outputSchema), which).to.include('replacedBy');
    }
  });
});
