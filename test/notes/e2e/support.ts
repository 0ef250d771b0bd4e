/**
 * The notes service booted as the runtime boots it (startTestRuntime, embedded stores in a temp
 * DATA_DIR, 127.0.0.1 on a free port), users signed in through the real OAuth flow with
 * openid-client, and a small JSON client for the API.
 */
import path from 'node:path';
import type { NotesApp } from '../../../src/notes/app.js';
import { type NotesServiceModule, notesService } from '../../../src/notes/service.js';
import { authorizeOverHttp, CookieJar } from '../../auth/support/browserless.js';
import {
  exchange,
  type oidc,
  registerClient,
  startAuthorization,
} from '../../auth/support/client.js';
import { startTestRuntime, type TestRuntime } from '../../support/runtime.js';

export interface NotesE2e {
  t: TestRuntime;
  service: NotesServiceModule;
  /** the built app of the current run: registry (listRoutes, openapi), auth server */
  app(): NotesApp;
  base: string;
  /** the second host: http://localhost:<port> */
  altBase: string;
  mailboxPath: string;
  /** `clientName`: the app's registered name (default "Notes test client"); each sign-in is its own app */
  signIn(
    email: string,
    options?: { scope?: string; base?: string; clientName?: string },
  ): Promise<SignedIn>;
  api(token: string, base?: string): Api;
  stop(): Promise<void>;
}

export interface SignedIn {
  config: oidc.Configuration;
  tokens: Awaited<ReturnType<typeof exchange>>;
  token: string;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked by the tests' assertions
export type Json = any;

export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export type Api = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<ApiResponse>;

export function client(base: string, token?: string): Api {
  return async (method, url, body, headers = {}) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined
        ? { body: typeof body === 'string' ? body : JSON.stringify(body) }
        : {}),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}

/**
 * Sign-ins through the real OAuth flow at `base` (or `options.base`), the code read from the dev
 * mailbox at `mailboxPath`; one browser per user and host: a second sign-in reuses the session.
 */
export function signInWith(base: string, mailboxPath: string): NotesE2e['signIn'] {
  const jars = new Map<string, CookieJar>();
  return async (email, options = {}) => {
    const at = options.base ?? base;
    const config = await registerClient(at, {
      algorithm: 'oauth2',
      name: options.clientName ?? 'Notes test client',
    });
    const pending = await startAuthorization(config, at, options.scope ?? 'notes');
    const key = `${email} ${at}`;
    const jar = jars.get(key) ?? new CookieJar();
    jars.set(key, jar);
    const callback = await authorizeOverHttp({
      authUrl: pending.url,
      base: at,
      email,
      mailboxPath,
      jar,
    });
    const tokens = await exchange(config, callback, pending);
    return { config, tokens, token: tokens.access_token };
  };
}

export async function startNotesE2e(env: Record<string, string> = {}): Promise<NotesE2e> {
  let built: NotesApp | undefined;
  const service = notesService({
    validateResponses: true,
    searchDelayMs: 20,
    onApp: (app) => {
      built = app;
    },
  });
  const t = await startTestRuntime([service], env);
  const base = t.url('notes');
  const port = new URL(base).port;
  const altBase = `http://localhost:${port}`;
  const mailboxPath = path.join(t.dir, 'dev-mailbox.jsonl');

  return {
    t,
    service,
    app() {
      if (!built) throw new Error('notes app not built');
      return built;
    },
    base,
    altBase,
    mailboxPath,
    signIn: signInWith(base, mailboxPath),
    api: (token, at = base) => client(at, token),
    stop: () => t.stop(),
  };
}

/** Create notes concurrently over HTTP, `width` at a time; returns the created notes in order. */
export async function createNotes(api: Api, bodies: unknown[], width = 16): Promise<Json[]> {
  const created: Json[] = new Array(bodies.length);
  let next = 0;
  async function worker() {
    while (next < bodies.length) {
      const i = next++;
      const res = await api('POST', '/v1/notes', bodies[i]);
      if (res.status !== 201) throw new Error(`create ${i}: ${res.status} ${res.text}`);
      created[i] = res.body;
    }
  }
  await Promise.all(Array.from({ length: width }, worker));
  return created;
}

/**
 * A note's, tag's or device's ETag at `revision`: the revision and a digest of the answer, which
 * shows other records' names (src/http/etag.ts).
 */
export const etagAt = (revision: number | string): RegExp =>
  new RegExp(`^"${revision}\\.[A-Za-z0-9_-]{11}"$`);

/** The revision an ETag names. */
export const revisionIn = (etag: string | null): string =>
  (etag ?? '').replace(/^"|(\.[^"]*)?"$/g, '');

/**
 * The usual file setup: the notes app started before the file's tests with `email` signed in,
 * stopped after them. The answer calls that account's client once `before` has run.
 */
export function signedInNotesApi(email = 'ada@example.com'): Api {
  let e: NotesE2e | undefined;
  let api: Api | undefined;
  before(async () => {
    e = await startNotesE2e();
    api = e.api((await e.signIn(email)).token);
  });
  after(async () => e?.stop());
  return (...args) => api!(...args);
}
