/**
 * One attempt over HTTP: POST the signed body to the address the target check approved (Host
 * and TLS SNI keep the URL's name, so certificates are verified against it), never following a
 * redirect, within 15 seconds from connect to the last byte read. Of the answer only the status,
 * Retry-After and the first kilobyte of the body (the delivery log's excerpt) are kept; reading
 * stops at 64 KiB.
 */
import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import type { CheckedTarget } from './target.js';

export const EXCERPT_BYTES = 1024;
const READ_LIMIT = 64 * 1024;

export interface AttemptRequest {
  target: CheckedTarget;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export interface AttemptResponse {
  /** null when no HTTP answer came (connection refused, timeout, TLS failure) */
  status: number | null;
  retryAfter?: string;
  /** at most EXCERPT_BYTES of UTF-8 */
  excerpt: string | null;
  error: string | null;
  durationMs: number;
  /**
   * true when our own stop (`close`) cut the attempt before an answer came: the receiver said
   * nothing, so nothing is recorded against it (attempt.ts)
   */
  stopped?: true;
}

export interface Sender {
  send(request: AttemptRequest): Promise<AttemptResponse>;
  /** end the attempts in flight now; they, and any sent after, answer `stopped` */
  close(): void;
}

const STOPPED = {
  status: null,
  excerpt: null,
  error: 'cut by the stop of the webhook worker',
  stopped: true,
} as const;

/**
 * The agents pool connections per host, port and TLS name, whichever webhook they serve, so they
 * keep Node's default of no cap on sockets per host: the lanes already bound each webhook's
 * attempts (WEBHOOK_CONCURRENCY), and a cap shared by every webhook at one host (a hosted
 * function platform, a company's gateway) let receivers that hold their requests open take every
 * socket: another webhook's attempts queued behind them until their 15 s ran out, counted as
 * failures.
 */
export function createSender(): Sender {
  const agentOptions = { keepAlive: true, timeout: 30_000 };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  let closed = false;

  function send({ target, headers, body, timeoutMs }: AttemptRequest): Promise<AttemptResponse> {
    if (closed) return Promise.resolve({ ...STOPPED, durationMs: 0 });
    const started = performance.now();
    const { url } = target;
    const secure = url.protocol === 'https:';
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return new Promise((resolve) => {
      let settled = false;
      const finish = (answer: Omit<AttemptResponse, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...answer, durationMs: Math.round(performance.now() - started) });
      };
      const request = (secure ? https : http).request({
        host: target.address,
        family: target.family,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, host: url.host, 'content-length': Buffer.byteLength(body) },
        agent: secure ? agents.https : agents.http,
        // certificates are checked against the URL's name, not the address we connect to
        ...(secure && hostname !== target.address ? { servername: hostname } : {}),
      });
      const timer = setTimeout(() => {
        request.destroy(new Error(`no complete answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      request.on('error', (error) =>
        finish(closed ? STOPPED : { status: null, excerpt: null, error: error.message }),
      );
      request.on('response', (response) => {
        const decoder = new StringDecoder('utf8');
        let excerpt = '';
        let excerptBytes = 0;
        let read = 0;
        const status = response.statusCode ?? null;
        const retryAfter = response.headers['retry-after'];
        const done = () =>
          finish({ status, excerpt, error: null, ...(retryAfter ? { retryAfter } : {}) });
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (excerptBytes < EXCERPT_BYTES) {
            const part = chunk.subarray(0, EXCERPT_BYTES - excerptBytes);
            excerptBytes += part.length;
            excerpt += decoder.write(part);
          }
          // the rest of a large answer is not worth reading (or keeping the socket for)
          if (read > READ_LIMIT) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
        response.on('close', done);
      });
      request.end(body);
    });
  }

  return {
    send,
    close() {
      closed = true;
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
