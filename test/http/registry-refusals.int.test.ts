/**
 * The operation registry over HTTP (feedback envelope): callers not authenticated or not
 * allowed, a handler that fails, a store that cannot serve.
 */
import { expect } from 'chai';
import {
  JSON_ADMIN,
  MEMBER,
  expectEnvelope,
  tinyFeedbackPerTest,
} from './support/feedback-calls.js';
import type { TinyWorld } from './support/tiny-service.js';

describe('Operation registry over HTTP (feedback envelope)', () => {
  const tiny = tinyFeedbackPerTest();
  const { call, createWidget } = tiny;
  let world: TinyWorld;
  beforeEach(() => {
    world = tiny.world;
  });

  describe('When the caller is not authenticated or not allowed', () => {
    // spec 000 "Errors": "missing, invalid or expired credential; anonymous session | 401 | unauthenticated"
    it('answers 401 with the service challenge, with and without a token', async () => {
      const none = await call('GET', '/v1/shops/acme/widgets');
      expectEnvelope(none, 401, 'unauthenticated');
      expect(none.res.headers.get('www-authenticate')).to.equal('Bearer realm="tiny"');
      const bad = await call('GET', '/v1/shops/acme/widgets', {
        headers: { authorization: 'Bearer nope' },
      });
      expectEnvelope(bad, 401, 'unauthenticated');
      expect(bad.res.headers.get('www-authenticate')).to.equal(
        'Bearer realm="tiny", error="invalid_token"',
      );
    });
    it('checks the credential before reading the body', async () => {
      const r = await call('POST', '/v1/shops/acme/widgets', {
        headers: { 'content-type': 'application/json' },
        body: '{',
      });
      expectEnvelope(r, 401, 'unauthenticated');
    });
    // spec 000 "Authorization model": "Some routes require the admin role; a member without it gets 403."
    it('answers 403 permission-denied when authorize refuses a member on an admin operation', async () => {
      expectEnvelope(
        await call('DELETE', '/v1/shops/acme', { headers: MEMBER }),
        403,
        'permission-denied',
      );
    });
    it('answers what authorize throws (404 for a hidden shop) before the handler runs', async () => {
      const r = await createWidget({ name: 'n', color: 'red' }, { ...JSON_ADMIN });
      expect(r.res.status).to.equal(201);
      const hidden = await call('POST', '/v1/shops/hidden/widgets', {
        headers: JSON_ADMIN,
        body: '{"name":"n","color":"red"}',
      });
      expectEnvelope(hidden, 404, 'not-found');
      expect(world.log).to.have.length(1);
    });
  });

  describe('When a handler fails unexpectedly', () => {
    it('answers 500 internal without details and logs the error with the correlation id', async () => {
      const r = await call('GET', '/v1/explode');
      expectEnvelope(r, 500, 'internal');
      expect(r.text).not.to.match(/hunter2|at .*\.ts|Error:/);
      const id = r.res.headers.get('x-correlation-id');
      expect(r.json.error).to.contain(id);
      expect(world.logged).to.have.length(1);
      expect(world.logged[0]!.fields.correlationId).to.equal(id);
      expect((world.logged[0]!.fields.error as Error).message).to.equal(
        'database password is hunter2',
      );
    });
  });

  describe('When a store cannot serve (a full disk, a lost server)', () => {
    it('answers 503 with Retry-After and logs the cause for the operator', async () => {
      // the client is only told to retry; an audit filled the disk and found no log line at all
      const r = await call('GET', '/v1/store-down');
      expectEnvelope(r, 503, 'resource-exhausted');
      expect(r.res.headers.get('retry-after')).to.equal('5');
      expect(r.json.error).not.to.include('disk');
      const line = world.logged.find((l) => l.message === 'store unavailable');
      expect(line?.fields).to.include({
        operationId: 'store_down',
        cause: 'commit failed (database or disk is full)',
      });
    });
  });
});
