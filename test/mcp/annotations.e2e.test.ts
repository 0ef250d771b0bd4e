/**
 * Every write tool of the three MCP servers is hinted destructive or additive on purpose, the
 * same way on both services. MCP 2025-06-18 (ToolAnnotations): destructiveHint "If true, the tool
 * may perform destructive updates to its environment. If false, the tool performs only additive
 * updates"; default true. README "MCP servers": a write that replaces or removes what exists —
 * a status, a whole tag set (spec 000: "`tag_item` replaces the whole tag set"), duplicates
 * folded into a survivor, a signing secret, a note's content (PUT), anything deleted — is
 * destructive even where a history or the trash keeps the earlier value; one that only adds a
 * record or brings back what was trashed or merged is not. A client asks before a destructive
 * call; an assistant adding one tag with tag_item must not be told it only adds.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { connectLocal, connectMcp } from './support.js';

/** Writes that replace or remove what exists. */
const DESTRUCTIVE = new Set([
  // feedback board
  'update_product',
  'update_item',
  'update_item_status',
  'tag_item',
  'merge_items',
  'revoke_api_token',
  'revoke_connected_app',
  'update_webhook',
  'delete_webhook',
  'rotate_webhook_secret',
  'revoke_integration',
  // notes
  'update_note',
  'delete_note',
  'remove_note_tag',
  'update_tag',
  'delete_tag',
  'update_device',
]);

/** Writes that only add, or bring back what a delete or a merge took away. */
const ADDITIVE = new Set([
  // feedback board
  'reply_to_item',
  'submit_feedback',
  'notify_people',
  'draft_changelog_entry',
  'unmerge_items',
  'create_api_token',
  'create_webhook',
  'send_test_webhook',
  'redeliver_webhook',
  'recover_webhook',
  'create_integration',
  // notes
  'create_note',
  'restore_note',
  'add_note_tag',
  'create_tag',
  'register_device',
]);

function checkHints(tools: readonly Tool[]): void {
  expect(tools.length).to.be.greaterThan(0);
  for (const { name, annotations } of tools) {
    if (annotations?.readOnlyHint === true) {
      expect(DESTRUCTIVE.has(name) || ADDITIVE.has(name), `${name} is read-only`).to.equal(false);
      continue;
    }
    const decided = DESTRUCTIVE.has(name) ? true : ADDITIVE.has(name) ? false : undefined;
    expect(decided, `${name}: a write nobody classed as destructive or additive`).to.not.equal(
      undefined,
    );
    expect(annotations?.destructiveHint, `${name} destructiveHint`).to.equal(decided);
  }
}

describe('When an assistant reads the tools’ destructiveHint (e2e)', function () {
  this.timeout(120_000);
  let fb: FeedbackHarness;
  let notes: NotesE2e;
  before(async () => {
    fb = await startFeedback();
    notes = await startNotesE2e();
  });
  after(async () => {
    await fb?.stop();
    await notes?.stop();
  });

  it('the feedback board hints every write that replaces or removes destructive, and only those', async () => {
    const owner = await fb.createMaker('max@acme.io');
    const mcp = await connectMcp(`${fb.url}/mcp`, { token: owner.token });
    try {
      const { tools } = await mcp.client.listTools();
      checkHints(tools);
      const byName = new Map(tools.map((t) => [t.name, t.annotations]));
      // replaces the whole set, sets one status, folds items away: still safe to repeat
      for (const name of ['tag_item', 'update_item_status', 'merge_items']) {
        expect(byName.get(name), name).to.include({ destructiveHint: true, idempotentHint: true });
      }
    } finally {
      await mcp.close();
    }
  });

  it('the hosted and the local notes servers hint them the same way', async () => {
    const ann = await notes.signIn('ann@example.com');
    for (const server of [
      await connectMcp(`${notes.base}/mcp`, { token: ann.token }),
      await connectLocal(notes.base, ann.token),
    ]) {
      try {
        checkHints((await server.client.listTools()).tools);
      } finally {
        await server.close();
      }
    }
  });
});
