/**
 * What GET /v1/openapi.json says each operation accepts is what the service enforces. Spec:
 * "the machine-readable description is authoritative"; a generated client offers OAuth sign-in
 * on exactly the operations whose `security` lists the `oauth2` scheme.
 *
 * The operations that take only the maker's own credentials (personal API tokens, connected apps,
 * integration credentials: README "Who manages credentials") answer every OAuth access token 403,
 * so they must not list `oauth2`; every other bearer operation takes an OAuth token and lists it.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { connectClient } from '../support/oauth.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];
type DocOperation = {
  operationId: string;
  description?: string;
  security?: Record<string, string[]>[];
};

/** the bodies the credential operations require (the others take none) */
const BODIES: Record<string, unknown> = {
  create_api_token: { name: 'from-an-app' },
  create_integration: { name: 'from-an-app' },
};

describe('When the OpenAPI document says which credentials an operation takes (e2e)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let maker: Maker;

  before(async () => {
    fb = await startFeedback();
    maker = await fb.createMaker('max@acme.io');
  });
  after(() => fb.stop());

  it('lists oauth2 on every bearer operation an OAuth access token may call, and on no other', async () => {
    const doc = (await fb.api().get('/v1/openapi.json')).body;
    const app = await connectClient(fb, { email: maker.email, name: 'Generated Client' });
    const asApp = fb.api(app.accessToken);
    const ownOnly: string[] = [];
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Partial<Record<Method, DocOperation>>>,
    )) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op?.security?.length) continue;
        const offersOAuth = op.security.some((s) => 'oauth2' in s);
        if (!/Only with your own credentials/.test(op.description ?? '')) {
          expect(offersOAuth, `${op.operationId} takes an OAuth access token`).to.equal(true);
          continue;
        }
        ownOnly.push(op.operationId);
        // well-formed ids nobody has: a malformed one is a 404 before anyone is authorized
        const url = path
          .replace('{slug}', maker.home.slug)
          .replace('{integrationId}', `int_${'0'.repeat(32)}`)
          .replace(/\{[A-Za-z]+\}/g, 'nobody');
        const send = {
          get: asApp.get,
          post: asApp.post,
          put: asApp.put,
          patch: asApp.patch,
          delete: asApp.del,
        }[method as Method];
        const res =
          method === 'get' || method === 'delete'
            ? await (send as typeof asApp.get)(url)
            : await send(url, BODIES[op.operationId] ?? {});
        expect(
          res.status,
          `${op.operationId} with an OAuth token: ${JSON.stringify(res.body)}`,
        ).to.equal(403);
        expect(op.security, op.operationId).to.deep.equal([{ bearerAuth: [] }]);
      }
    }
    expect(ownOnly.sort()).to.deep.equal([
      'create_api_token',
      'create_integration',
      'list_api_tokens',
      'list_connected_apps',
      'list_integrations',
      'revoke_api_token',
      'revoke_connected_app',
      'revoke_integration',
    ]);
  });
});
