/**
 * A webhook receiver as an integrator would write one: a plain node:http server on 127.0.0.1
 * that keeps every request it gets (headers and the raw body) and answers what the test tells
 * it to. Verification is the integrator's own: the `standardwebhooks` package.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { bindAgain, listenOnFreePort } from '../../../support/ports.js';

export interface Received {
  method: string;
  /** the request target: path and query as sent */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** webhook-id */
  id: string;
  at: number;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** hold the answer back until this promise settles */
  hold?: Promise<unknown>;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** what to answer next; default 204 */
  answer: (request: Received) => Answer;
  /** stop listening (connection refused) or listen again on the same port */
  down(): Promise<void>;
  up(): Promise<void>;
  /** resolves once `count` requests have arrived (bounded by `timeoutMs`) */
  until(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** The receiver's check, exactly as its README example does it. Throws when it fails. */
export function verify(secret: string, request: Received): any {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });
}

const listenOn = (server: Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  let server: Server | undefined;
  let boundPort = port;

  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    answer: () => ({ status: 204 }),
    async down() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    async up() {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', async () => {
          const request: Received = {
            method: String(req.method),
            path: String(req.url),
            headers: req.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            id: String(req.headers['webhook-id']),
            at: Date.now(),
          };
          received.push(request);
          for (const wake of waiters.splice(0)) wake();
          const answer = receiver.answer(request);
          if (answer.hold) await answer.hold.catch(() => {});
          res.writeHead(answer.status, answer.headers ?? {});
          res.end(answer.body ?? '');
        });
      });
      // outside the ephemeral range, and bound again after down() while another run's freePort
      // may be checking it: another process's connection would take a port listen(0) gave
      const listening = server;
      if (boundPort === 0) await listenOnFreePort(listening);
      else await bindAgain(() => listenOn(listening, boundPort));
      boundPort = (server.address() as AddressInfo).port;
      receiver.port = boundPort;
      receiver.url = `http://127.0.0.1:${boundPort}/hooks`;
    },
    async until(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new Error(
            `receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`,
          );
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close: () => receiver.down(),
  };
  await receiver.up();
  return receiver;
}
