/**
 * Issue 10 item 12: "Add a test that walks every operation and fails when any answer it can
 * produce is not declared." Every operation of both services, read from their OpenAPI documents,
 * gets the same battery of requests (no credential, a bad one, a stranger's, a public-scope
 * token, malformed addresses, bodies and query values, a bad Idempotency-Key); every answer's
 * status must be one the operation declares, in the service's envelope.
 */
import { expect } from 'chai';
import { connectClient } from '../feedback/support/oauth.js';
import { type Board, startBoard } from '../feedback/triage/board.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      { operationId: string; responses: Record<string, unknown>; parameters?: Param[] }
    >
  >;
};
type Param = { name: string; in: 'path' | 'query' };

interface Probe {
  what: string;
  path: string;
  token?: string;
  headers?: Record<string, string>;
  body?: string;
}

const SAMPLE: Record<string, string> = {
  slug: 'acme-co',
  key: 'APP',
  itemKey: 'APP-1',
  personId: 'p-unknown',
};

function probesFor(
  template: string,
  method: string,
  params: Param[],
  tokens: Record<string, string>,
): Probe[] {
  const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
  const fill = (override: Record<string, string> = {}) =>
    template.replace(/\{(\w+)\}/g, (_, name: string) => override[name] ?? SAMPLE[name] ?? 'x1');
  const write = method !== 'get';
  const probes: Probe[] = [
    { what: 'no credential', path: fill() },
    { what: 'a bad credential', path: fill(), token: 'not-a-token' },
  ];
  for (const [who, token] of Object.entries(tokens)) {
    probes.push({ what: `${who}, no body`, path: fill(), token });
    for (const name of pathParams) {
      for (const bad of ['%ZZ', 'Bad_Value!', 'a'.repeat(300)]) {
        probes.push({ what: `${who}, ${name}=${bad}`, path: fill({ [name]: bad }), token });
      }
    }
    const query = params.filter((p) => p.in === 'query').map((p) => p.name);
    for (const name of query) {
      for (const bad of ['', 'x', '-1', '99999999999999999999', '%ZZ']) {
        probes.push({ what: `${who}, ?${name}=${bad}`, path: `${fill()}?${name}=${bad}`, token });
      }
    }
    if (!write) continue;
    const json = { 'content-type': 'application/json' };
    probes.push(
      { what: `${who}, {}`, path: fill(), token, headers: json, body: '{}' },
      { what: `${who}, unknown field`, path: fill(), token, headers: json, body: '{"zz":1}' },
      { what: `${who}, malformed JSON`, path: fill(), token, headers: json, body: '{' },
      { what: `${who}, an array`, path: fill(), token, headers: json, body: '[1]' },
      {
        what: `${who}, text/plain`,
        path: fill(),
        token,
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      },
      {
        what: `${who}, oversize`,
        path: fill(),
        token,
        headers: json,
        body: JSON.stringify({ body: 'x'.repeat(1_100_000) }),
      },
      {
        what: `${who}, bad Idempotency-Key`,
        path: fill(),
        token,
        headers: { ...json, 'idempotency-key': 'has space' },
        body: '{}',
      },
    );
  }
  return probes;
}

async function walk(base: string, tokens: Record<string, string>, envelope: string[]) {
  const doc = (await (await fetch(`${base}${docPath(base)}`)).json()) as Doc;
  const undeclared: string[] = [];
  let answered = 0;
  for (const [template, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const declared = new Set(Object.keys(op.responses).map(Number));
      for (const probe of probesFor(template, method, op.parameters ?? [], tokens)) {
        const res = await fetch(`${base}${probe.path}`, {
          method: method.toUpperCase(),
          headers: {
            ...(probe.token ? { authorization: `Bearer ${probe.token}` } : {}),
            ...probe.headers,
          },
          body: probe.body,
        });
        const text = await res.text();
        answered++;
        if (!declared.has(res.status)) {
          undeclared.push(`${op.operationId} (${probe.what}): ${res.status} ${text.slice(0, 120)}`);
        } else if (res.status >= 400) {
          const keys = Object.keys(JSON.parse(text)).sort();
          if (keys.join() !== envelope.join()) {
            undeclared.push(`${op.operationId} (${probe.what}): envelope ${keys.join()}`);
          }
        }
      }
    }
  }
  return { undeclared, answered };
}

const docs = new Map<string, string>();
const docPath = (base: string) => docs.get(base)!;

describe('Every answer an operation can give is declared (e2e)', function () {
  this.timeout(300_000);

  describe('When the feedback service is walked', () => {
    let board: Board;
    before(async () => {
      board = await startBoard();
      docs.set(board.fb.url, '/v1/openapi.json');
    });
    after(() => board.fb.stop());

    it('answers only statuses its OpenAPI entries declare, each in the {error, code} envelope', async () => {
      const narrow = await connectClient(board.fb, {
        email: 'outsider@else.io',
        scope: 'openid service.public',
        name: 'Narrow',
      });
      const { undeclared, answered } = await walk(
        board.fb.url,
        {
          owner: board.owner.token,
          member: board.member.token,
          stranger: board.outsider.token,
          'public scope': narrow.accessToken,
        },
        ['code', 'error'],
      );
      expect(answered).to.be.greaterThan(1000);
      expect(undeclared, undeclared.join('\n')).to.deep.equal([]);
    });
  });

  describe('When the notes service is walked', () => {
    let notes: NotesE2e;
    before(async () => {
      notes = await startNotesE2e();
      docs.set(notes.base, '/docs/json');
    });
    after(() => notes.stop());

    it('answers only statuses its OpenAPI entries declare, each in the {error} envelope', async () => {
      const { token } = await notes.signIn('walker@example.com');
      const { undeclared, answered } = await walk(notes.base, { user: token }, ['error']);
      expect(answered).to.be.greaterThan(200);
      expect(undeclared, undeclared.join('\n')).to.deep.equal([]);
    });
  });
});
