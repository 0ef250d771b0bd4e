/**
 * Test harness: an Express app on 127.0.0.1:0 mounting the auth module over the embedded read
 * store (or one the test opens), with fake accounts, a dev mailbox file, a /cb route standing in
 * for a client's redirect page, and `restart()` that closes and reopens everything over the same
 * SQLite file.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import {
  type AccountsPort,
  type AuthorizationServer,
  createAuthorizationServer,
} from '../../../src/auth/index.js';
import {
  type AuthorizationServerOptions,
  DEFAULT_SIGN_IN_LIMITS,
} from '../../../src/auth/options.js';
import { pageSecurityHeaders } from '../../../src/platform/security-headers.js';
import { openEmbeddedReadStore } from '../../../src/readstore/embedded/index.js';
import type { ReadStore } from '../../../src/readstore/types.js';

export function fakeAccounts(): AccountsPort & { byEmail: Map<string, string> } {
  const byEmail = new Map<string, string>();
  return {
    byEmail,
    async findOrCreateByEmail(email) {
      let id = byEmail.get(email);
      if (!id) {
        id = `user-${byEmail.size + 1}`;
        byEmail.set(email, id);
      }
      return { id };
    },
    async findById(id) {
      for (const [email, known] of byEmail)
        if (known === id) return { id, email, displayName: null };
      return null;
    },
  };
}

type ServiceOptions = Omit<
  AuthorizationServerOptions,
  'issuer' | 'readStore' | 'accounts' | 'devMailboxPath'
> & {
  /** serve the same auth also as http://localhost:<port> (a second host) */
  withAltHost?: boolean;
  /** register the static first-party client `first-party-web` redirecting to <base>/cb */
  withFirstPartyClient?: boolean;
  /** the read store to keep the records in (default: the embedded one, in a temporary file) */
  openReadStore?: () => Promise<ReadStore>;
  /**
   * the address the service is known by (default: this harness's own): a second process behind
   * one load balancer answers as the first, over the first's store
   */
  issuer?: string;
};

export interface Harness {
  base: string;
  altBase: string;
  mailboxPath: string;
  auth: AuthorizationServer;
  accounts: ReturnType<typeof fakeAccounts>;
  /** the read store the auth module keeps its records in (current after a restart) */
  readStore(): ReadStore;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(options: ServiceOptions): Promise<Harness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-test-'));
  const dbPath = path.join(dir, 'data.sqlite');
  const mailboxPath = path.join(dir, 'dev-mailbox.jsonl');
  const accounts = fakeAccounts();
  let current: express.Router | null = null;
  const app = express();
  // as the services mount it (src/platform/security-headers.ts)
  app.use(pageSecurityHeaders({ https: false }));
  app.use((req, res, next) => (current ? current(req, res, next) : res.status(503).end()));
  app.get('/cb', (_req, res) => {
    res
      .type('html')
      .send('<!doctype html><title>callback</title><p id="done">back at the client</p>');
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const altBase = `http://localhost:${port}`;

  let store: ReadStore;
  const harness = {
    base,
    altBase,
    mailboxPath,
    accounts,
  } as Harness;

  async function open() {
    store = await (options.openReadStore?.() ?? openEmbeddedReadStore({ path: dbPath }));
    harness.auth = await createAuthorizationServer({
      // many sign-ins per test file; the throttle tests pass the real figures
      signInLimits: {
        ...DEFAULT_SIGN_IN_LIMITS,
        codesPerAddress: 1000,
        codesPerAddressPerDay: 10000,
        codesPerIp: 10000,
      },
      ...options,
      issuer: options.issuer ?? base,
      ...(options.withAltHost ? { altIssuers: [altBase] } : {}),
      ...(options.withFirstPartyClient
        ? {
            firstPartyClients: [
              {
                client_id: 'first-party-web',
                client_name: 'Board web app',
                redirect_uris: [`${base}/cb`],
              },
            ],
          }
        : {}),
      readStore: store,
      accounts,
      devMailboxPath: mailboxPath,
      logger: options.logger ?? { info: () => {}, warn: () => {} },
    });
    current = harness.auth.router;
  }
  await open();

  harness.readStore = () => store;
  harness.restart = async () => {
    current = null;
    await harness.auth.close();
    await store.close();
    await open();
  };
  harness.close = async () => {
    current = null;
    await harness.auth.close();
    await store.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return harness;
}
