/**
 * The tiny service (tiny-service.ts) under the feedback envelope, a new one for each test, and
 * the calls the registry's tests make to it.
 */
import type { Server } from 'node:http';
import { expect } from 'chai';
import { feedbackEnvelope } from '../../../src/http/registry.js';
import { appOf, close, listen, newWorld, type TinyWorld, tinyHttp } from './tiny-service.js';

export const ADMIN = { authorization: 'Bearer admin' };
export const MEMBER = { authorization: 'Bearer member' };
export const JSON_ADMIN = { ...ADMIN, 'content-type': 'application/json' };

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked by the tests' assertions
type Json = any;
type Answer = { res: Response; text: string; json: Json };

export interface TinyFeedback {
  /** the world of the current test's service */
  world: TinyWorld;
  call(
    method: string,
    path: string,
    init?: { headers?: Record<string, string>; body?: string | Blob },
  ): Promise<Answer>;
  createWidget(body: unknown, headers?: Record<string, string>): Promise<Answer>;
}

/** Starts the service before each test of the calling `describe` and stops it after. */
export function tinyFeedbackPerTest(): TinyFeedback {
  let server: Server;
  let base: string;
  const tiny: TinyFeedback = {
    world: newWorld(),
    async call(method, path, init = {}) {
      const res = await fetch(base + path, { method, headers: init.headers, body: init.body });
      const text = await res.text();
      return { res, text, json: text ? JSON.parse(text) : undefined };
    },
    async createWidget(body, headers = JSON_ADMIN) {
      return tiny.call('POST', '/v1/shops/acme/widgets', { headers, body: JSON.stringify(body) });
    },
  };
  beforeEach(async () => {
    tiny.world = newWorld();
    ({ server, base } = await listen(appOf(tinyHttp(tiny.world, feedbackEnvelope()))));
  });
  afterEach(() => close(server));
  return tiny;
}

/** spec 000 "Errors": "Every 4xx and 5xx answer has one envelope: {error: string, code: string}, both required, no other fields." */
export function expectEnvelope(r: { res: Response; json: unknown }, status: number, code: string) {
  expect(r.res.status).to.equal(status);
  expect(r.res.headers.get('content-type')).to.match(/^application\/json/);
  expect(Object.keys(r.json as object).sort()).to.deep.equal(['code', 'error']);
  expect((r.json as { code: string }).code).to.equal(code);
  expect((r.json as { error: string }).error).to.be.a('string').and.not.empty;
}
