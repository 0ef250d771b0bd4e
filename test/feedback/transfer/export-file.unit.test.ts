/**
 * The export file's checks (src/feedback/transfer): a chain proves the file was not changed
 * after it was written, not who wrote it — so a file with a correct chain is still refused when
 * it carries what no export writes (issue 15: "Refuses a file whose chain is broken"; and no
 * import may smuggle in another workspace's streams or credentials).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  headerHash,
  lineHash,
} from '../../../src/feedback/transfer/format.js';
import { checkExportFile } from '../../../src/feedback/transfer/import.js';

const header = JSON.stringify({
  format: EXPORT_FORMAT,
  version: EXPORT_VERSION,
  workspace: { id: 'w1', slug: 'acme-co', name: 'Acme' },
  exportedAt: '2025-01-01T00:00:00.000Z',
  source: { adapter: 'embedded', head: '9', headHash: null },
});
const metadata = JSON.stringify({
  actor: null,
  occurredAt: 1,
  correlationId: 'c',
  causationId: null,
});

/** An event each kind of stream holds, with data of its shape. */
const EVENT_OF: [string, string, string][] = [
  ['workspace-', 'MemberRemoved', '{"userId":"u1"}'],
  ['item-', 'ItemMergedInto', '{"survivorKey":"APP-2"}'],
  ['person-', 'PersonUpdated', '{}'],
  ['user-', 'UserCreated', '{"userId":"u1","email":"a@b.io","displayName":"A"}'],
];
const eventOf = (streamId: string) =>
  EVENT_OF.find(([prefix]) => streamId.startsWith(prefix)) ?? ['', 'Happened', '{}'];

/** A file whose chain is correct, holding these events. */
function fileOf(events: { streamId: string; data?: string; metadata?: string }[]): string {
  let previous = headerHash(header);
  const lines = [header];
  events.forEach((e, i) => {
    const line = {
      position: String(i + 1),
      streamId: e.streamId,
      revision: 0,
      id: `e${i}`,
      type: eventOf(e.streamId)[1],
      data: e.data ?? eventOf(e.streamId)[2],
      metadata: e.metadata ?? metadata,
    };
    previous = lineHash(previous, line);
    lines.push(JSON.stringify({ ...line, logHash: null, hash: previous }));
  });
  lines.push(JSON.stringify({ end: true, events: events.length, hash: previous }));
  return `${lines.join('\n')}\n`;
}

describe('When an export file with a correct chain is checked', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'export-file-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const check = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return checkExportFile(path);
  };

  it('accepts the workspace’s streams, its people and its users', async () => {
    const report = await check(
      'ok.jsonl',
      fileOf([
        { streamId: 'workspace-w1' },
        { streamId: 'item-w1.APP-1' },
        { streamId: 'person-p1' },
        { streamId: 'user-u1' },
      ]),
    );
    expect(report.events).to.equal(4);
  });

  it('refuses tokens, other workspaces and events without JSON or metadata', async () => {
    const refusal = async (name: string, events: Parameters<typeof fileOf>[0]) =>
      (await check(name, fileOf(events)).catch((e: Error) => e)) as Error;
    expect((await refusal('token.jsonl', [{ streamId: 'token-t1' }])).message).to.match(
      /line 2: stream token-t1 is not part of workspace w1/,
    );
    expect((await refusal('other.jsonl', [{ streamId: 'item-w2.APP-1' }])).message).to.match(
      /not part of workspace w1/,
    );
    expect(
      (await refusal('json.jsonl', [{ streamId: 'user-u1', data: '{oops' }])).message,
    ).to.match(/not JSON/);
    expect(
      (await refusal('meta.jsonl', [{ streamId: 'user-u1', metadata: '{"actor":null}' }])).message,
    ).to.match(/lacks its metadata/);
    // the data must have its event type's shape, as every reader expects
    expect((await refusal('shape.jsonl', [{ streamId: 'user-u1', data: '{}' }])).message).to.match(
      /\(UserCreated\) has data of another shape/,
    );
  });
});
