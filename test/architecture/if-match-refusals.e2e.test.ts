/**
 * Every write of both services that honours a failed If-Match through its commands
 * (`honoursIfMatch: 'commands'`, src/http/operation.ts) writes nothing when refused: RFC 9110
 * §13.1.1, an origin server "MUST NOT perform the requested method if a received If-Match
 * condition evaluates to false". The command handler refuses the commands (batch.ts
 * `unmetPrecondition`); this audit catches what such a handler writes beside them — read-store
 * documents, limits buckets, deliveries — which nothing else would.
 *
 * The operations come from the registries, so a new one is audited as soon as it exists (and
 * fails until it has a fixture). Each is sent over real HTTP, on a resource that exists, with an
 * If-Match no resource without ETag can match: it must answer 412, append no event and make no
 * read-store write but the ones listed below with their reason. The same request without the
 * If-Match then succeeds and appends: the fixture reached the write, and the watch sees it.
 */
import { expect } from 'chai';
import type { Operation } from '../../src/http/operation.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { startFeedback } from '../feedback/support/harness.js';
import { type WriteWatch, watchWrites } from '../support/watched-writes.js';
import {
  type Call,
  FEEDBACK_FIXTURES,
  type FeedbackWorld,
  NOTES_FIXTURES,
} from './support/if-match-fixtures.js';

const CANNOT_MATCH = '"no-such-etag"';

/** read-store writes a refused request may make, `collection.method`: why it is no write of it */
const ALLOWED_WRITES: Record<string, string> = {};

type AnyOperation = Pick<Operation, 'id' | 'method' | 'path' | 'honoursIfMatch'>;

const gatedByCommands = (ops: readonly AnyOperation[]) =>
  ops.filter((op) => op.honoursIfMatch === 'commands');

/** the path template as a pattern: a fixture must call its own operation */
const routeOf = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);

describe('When each write that honours If-Match through its commands is sent one that cannot hold (e2e)', function () {
  this.timeout(180_000);
  let world: FeedbackWorld;
  let notes: NotesE2e;
  let feedbackOps: AnyOperation[];
  let notesOps: AnyOperation[];

  before(async () => {
    const fb = await startFeedback({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    const owner = await fb.createMaker('owner@audit.io');
    const outsider = await fb.createMaker('someone@else.io');
    const ws = await fb.createWorkspace(owner, { slug: 'audit-co', name: 'Audit' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
    await fb.createProduct(ws, { key: 'WEB', name: 'Web', visibility: 'public' });
    world = { fb, ws, owner, outsider };
    notes = await startNotesE2e();
    feedbackOps = [...fb.app().http.operations];
    notesOps = [...notes.app().http.operations];
  });
  after(async () => {
    await world?.fb.stop();
    await notes?.stop();
  });

  it('has a fixture for each such write of both services, and none for anything else', () => {
    const lacking = [
      ...gatedByCommands(feedbackOps).filter((op) => !FEEDBACK_FIXTURES[op.id]),
      ...gatedByCommands(notesOps).filter((op) => !NOTES_FIXTURES[op.id]),
    ].map((op) => op.id);
    expect(lacking, 'add to test/architecture/support/if-match-fixtures.ts').to.deep.equal([]);
    const gated = new Set([...gatedByCommands(feedbackOps), ...gatedByCommands(notesOps)]);
    const stale = [...Object.keys(FEEDBACK_FIXTURES), ...Object.keys(NOTES_FIXTURES)].filter(
      (id) => ![...gated].some((op) => op.id === id),
    );
    expect(stale, 'fixtures of operations that are not such writes').to.deep.equal([]);
    expect(gatedByCommands(feedbackOps).map((op) => op.id)).to.include.members([
      'submit_feedback',
      'merge_items',
      'create_webhook',
    ]);
  });

  async function send(op: AnyOperation, call: Call, headers: Record<string, string> = {}) {
    const api = world.fb.api(call.token);
    const options = { headers };
    switch (op.method) {
      case 'get':
        return api.get(call.path, options);
      case 'delete':
        return api.del(call.path, options);
      default:
        return api[op.method](call.path, call.body, options);
    }
  }

  /** what a refused request of `op` wrote that it may not, as one line; undefined: nothing */
  async function refusedWrites(op: AnyOperation, watch: WriteWatch): Promise<string | undefined> {
    const call = await FEEDBACK_FIXTURES[op.id]!(world);
    expect(call.path, `${op.id}'s fixture calls ${op.path}`).to.match(routeOf(op.path));
    watch.reset();
    // keyed, so that what a keyed write keeps (quiet keys, first attempts) is watched too
    const key = { 'idempotency-key': `audit-${op.id}` };
    const refused = await send(op, call, { ...key, 'if-match': CANNOT_MATCH });
    expect(refused.status, `${op.id}: ${JSON.stringify(refused.body)}`).to.equal(412);
    const written = watch.written('if-match', CANNOT_MATCH);
    const stray = written.readStore.filter((write) => !ALLOWED_WRITES[write]);
    if (written.events.length > 0 || stray.length > 0) {
      return `${op.id}: appended [${written.events.join(', ')}], wrote [${stray.join(', ')}]`;
    }
    // the fixture reaches the write: without the If-Match the same request succeeds and
    // appends (the refusal kept nothing under its key either), and the watch sees it
    const done = await send(op, call, key);
    expect(done.status, `${op.id} without If-Match: ${JSON.stringify(done.body)}`).to.be.within(
      200,
      299,
    );
    expect(watch.written('if-match', undefined).events, `${op.id} appends`).to.not.be.empty;
    return undefined;
  }

  it('answers each 412 with no event appended and nothing written to the read store', async () => {
    const violations: string[] = [];
    const watch = watchWrites(world.fb.runtime.runtime.stores.eventStore);
    try {
      for (const op of gatedByCommands(feedbackOps)) {
        if (!FEEDBACK_FIXTURES[op.id]) continue; // the test above fails for it
        const violation = await refusedWrites(op, watch);
        if (violation) violations.push(violation);
      }
    } finally {
      watch.stop();
    }
    expect(violations).to.deep.equal([]);
  });
});
