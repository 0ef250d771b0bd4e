/**
 * What every command of the model-based test shares: the If-Match a write sends, the keyed
 * write's bookkeeping, and the read-your-writes check after each write.
 */
import { expect } from 'chai';
import type { Api, ApiResponse, Json } from '../e2e/support.js';
import type { ModelNote, NotesModel, Real } from './model.js';

/**
 * How a write names the revision it read. README: "`If-Match` compares the revision only (`"3"`
 * works as well)"; `*` matches any existing note, a list when one of its tags does.
 */
export type Precondition = 'none' | 'revision' | 'etag' | 'star' | 'list' | 'stale';
export const preconditions: Precondition[] = ['none', 'revision', 'etag', 'star', 'list', 'stale'];

export function ifMatch(note: ModelNote, how: Precondition): Record<string, string> {
  const r = note.revision;
  const other = r > 0 ? r - 1 : r + 1;
  switch (how) {
    case 'none':
      return {};
    case 'revision':
      return { 'if-match': `"${r}"` };
    case 'etag':
      return { 'if-match': `"${r}.AAAAAAAAAAA"` };
    case 'star':
      return { 'if-match': '*' };
    case 'list':
      return { 'if-match': `"${other}", "${r}"` };
    case 'stale':
      return { 'if-match': `"${other}"` };
    default: {
      const _exhaustive: never = how;
      return _exhaustive;
    }
  }
}

export function expectStatus(res: ApiResponse, status: number, what: string): void {
  expect(res.status, `${what}: ${res.text}`).to.equal(status);
  if (status >= 400) expect(res.body?.error, `${what}: the {error} envelope`).to.be.a('string');
}

/**
 * A write that may carry an Idempotency-Key; when it succeeds, the model keeps what it sent and
 * what it got so that a retry can be compared with it.
 */
export async function write(
  model: NotesModel,
  api: Api,
  request: { method: string; path: string; body?: Json; headers: Record<string, string> },
  keyed: boolean,
): Promise<ApiResponse> {
  const headers = keyed ? { ...request.headers, 'idempotency-key': model.key() } : request.headers;
  const res = await api(request.method, request.path, request.body, headers);
  if (keyed && res.status < 300) {
    model.keyed.push({ ...request, headers, status: res.status, answer: res.body });
  }
  return res;
}

/**
 * Read-your-writes (README: "A write answers only once its read models include it"): right
 * after a write answered, another device of the account reads the note as the model has it.
 */
export async function readBack(model: NotesModel, real: Real, note: ModelNote, by: number) {
  const api = real.apis[by % real.apis.length]!;
  const res = await api('GET', `/v1/notes/${note.id}`);
  expectStatus(res, 200, `GET the note ${note.id} after a write`);
  model.expectNote(res.body, note, `note ${note.id} read back`);
  expect(res.headers.get('etag'), 'ETag names the revision').to.match(
    new RegExp(`^"${note.revision}\\.`),
  );
}

/** The item at `index` of a non-empty list, wrapping around (commands are drawn before state). */
export const pick = <T>(items: readonly T[], index: number): T => items[index % items.length]!;

export function describeNote(note: ModelNote): string {
  return `${note.id}@${note.revision}${note.trashed ? ' (trashed)' : ''}`;
}

export type { Json };
