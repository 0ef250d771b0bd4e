/**
 * Issue 10 item 6: "The Host header rewrites discovery: GET /.well-known/openid-configuration
 * with Host: evil.example answers every endpoint as http://evil.example/… (the issuer stays
 * right). Build every advertised URL from the configured base URL, on both services."
 */
import http from 'node:http';
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';

const SPOOFED = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
};

/** GET with headers fetch() will not send (Host); 127.0.0.1 only */
function getJson(base: string, path: string, headers: Record<string, string>) {
  const url = new URL(path, base);
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    http
      .get({ host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve(JSON.parse(text)));
      })
      .on('error', reject);
  });
}

/** every string in the document that is a URL */
function urlsIn(doc: unknown): string[] {
  if (typeof doc === 'string') return /^[a-z]+:\/\//i.test(doc) ? [doc] : [];
  if (Array.isArray(doc)) return doc.flatMap(urlsIn);
  if (doc && typeof doc === 'object') return Object.values(doc).flatMap(urlsIn);
  return [];
}

function expectAllUnder(doc: unknown, base: string): void {
  const urls = urlsIn(doc);
  expect(urls.length).to.be.greaterThan(0);
  for (const url of urls) expect(url.startsWith(`${base}/`) || url === base, url).to.equal(true);
}

describe('When a request names another host (feedback)', () => {
  let fb: FeedbackHarness;
  before(async () => {
    fb = await startFeedback();
  });
  after(() => fb.stop());

  it('answers discovery with URLs from the configured base URL only', async () => {
    const doc = await getJson(fb.url, '/.well-known/openid-configuration', SPOOFED);
    expect(doc.issuer).to.equal(fb.url);
    expectAllUnder(doc, fb.url);
  });

  it('answers the protected-resource metadata from the configured base URL only', async () => {
    const doc = await getJson(fb.url, '/.well-known/oauth-protected-resource', SPOOFED);
    expectAllUnder(doc, fb.url);
  });

  it('names only the configured base URL in its OpenAPI servers', async () => {
    const doc = await getJson(fb.url, '/v1/openapi.json', SPOOFED);
    expect(doc.servers).to.deep.equal([{ url: fb.url }]);
  });
});

describe('When a request names another host (notes)', () => {
  let notes: NotesE2e;
  before(async () => {
    notes = await startNotesE2e();
  });
  after(() => notes.stop());

  it('answers discovery with URLs from the configured base URL only', async () => {
    const doc = await getJson(notes.base, '/.well-known/oauth-authorization-server', SPOOFED);
    expect(doc.issuer).to.equal(notes.base);
    expectAllUnder(doc, notes.base);
  });

  it('keeps the second configured host its own URLs', async () => {
    const doc = await getJson(notes.base, '/.well-known/oauth-authorization-server', {
      host: new URL(notes.altBase).host,
    });
    expectAllUnder(doc, notes.altBase);
  });
});
