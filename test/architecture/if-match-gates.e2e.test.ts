/**
 * Every write of both services whose resource carries no ETag says how it honours an If-Match
 * that cannot hold (src/http/operation.ts `honoursIfMatch`). RFC 9110 §13.1.1: an origin server
 * "MUST NOT perform the requested method if a received If-Match condition evaluates to false";
 * §13.2.1: it "MUST ignore all received preconditions if its response to the same request
 * without those conditions ... would have been a status code other than a 2xx ... or 412".
 *
 * The lifecycle refuses an undeclared write before its handler, so forgetting the declaration
 * cannot let a write through — it would answer 412 where a missing resource should answer 404,
 * which the first test catches. The writes outside the event log are listed here with what they
 * write: each must read `ctx.unmetPrecondition` itself, and a new one is a conscious addition. That
 * the ones gated by their commands write nothing else is checked by running them
 * (if-match-refusals.e2e.test.ts).
 */
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';

/** the writes that do not go (only) through the command handler, and where they write */
const GATED_IN_HANDLER: Record<string, string> = {
  send_test_webhook: 'inserts a delivery into the read store',
  redeliver_webhook: 'requeues a delivery in the read store',
  recover_webhook: 'requeues the failed deliveries in the read store',
  revoke_connected_app: "revokes the app's grants in the OAuth server",
};

describe('When the operations of both services are listed (If-Match gates and search scopes)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let notes: NotesE2e;
  /** what this test reads of an operation: the same in both services */
  let ops: {
    id: string;
    method: string;
    path: string;
    versioned?: true;
    throttled?: string;
    scope?: unknown;
    honoursIfMatch?: string;
    resource?: string;
    handler: { toString(): string };
  }[];
  before(async () => {
    fb = await startFeedback();
    notes = await startNotesE2e();
    ops = [...fb.app().http.operations, ...notes.app().http.operations];
  });
  after(async () => {
    await fb?.stop();
    await notes?.stop();
  });
  const unversionedWrites = () => ops.filter((op) => op.method !== 'get' && !op.versioned);

  it('sees the writes of both services', () => {
    const ids = unversionedWrites().map((op) => op.id);
    expect(ids).to.include.members(['merge_items', 'submit_feedback', 'revoke_connected_app']);
  });

  it('has every write without ETag declare how it honours If-Match (else a 404 becomes 412)', () => {
    const undeclared = unversionedWrites()
      .filter((op) => !op.honoursIfMatch)
      .map((op) => op.id);
    expect(undeclared, 'declare honoursIfMatch (src/http/operation.ts)').to.deep.equal([]);
  });

  it('has exactly the listed writes outside the event log gate themselves, each reading ctx.unmetPrecondition', () => {
    const gated = unversionedWrites().filter((op) => op.honoursIfMatch === 'handler');
    expect(gated.map((op) => op.id).sort()).to.deep.equal(Object.keys(GATED_IN_HANDLER).sort());
    for (const op of gated) {
      expect(
        op.handler.toString(),
        `${op.id} throws ctx.unmetPrecondition before it writes`,
      ).to.include('unmetPrecondition');
    }
  });

  // a throttled operation is refused 429 or 412 before its handler: what its path names beyond
  // the workspace authorize checks must be found first (`scope`), or a missing one answers 412
  it('has every search whose path names more than its workspace declare the scope it checks first', () => {
    const unchecked = ops
      .filter((op) => op.throttled && /\{(?!slug\})/.test(op.path) && !op.scope)
      .map((op) => op.id);
    expect(unchecked, 'declare scope (src/http/operation.ts)').to.deep.equal([]);
    const scoped = ops.filter((op) => op.scope).map((op) => op.id);
    expect(scoped).to.include.members(['search_items', 'summarize_feedback']);
  });

  // a read's 412 names what changed as the writes' 412s of that resource do ("the note has
  // changed since it was read"), not "the resource"
  it('has every read that answers an ETag name its resource, and nothing else name one', () => {
    const versionedRead = (op: (typeof ops)[number]) => op.method === 'get' && op.versioned;
    const unnamed = ops.filter((op) => versionedRead(op) && !op.resource).map((op) => op.id);
    expect(unnamed, 'declare resource (src/http/operation.ts)').to.deep.equal([]);
    const needless = ops.filter((op) => op.resource && !versionedRead(op)).map((op) => op.id);
    expect(needless).to.deep.equal([]);
  });

  it('declares nothing on reads and versioned writes, which need no declaration', () => {
    const needless = ops
      .filter((op) => (op.method === 'get' || op.versioned) && op.honoursIfMatch)
      .map((op) => op.id);
    expect(needless).to.deep.equal([]);
  });
});
