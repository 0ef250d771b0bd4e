/**
 * The baselines of `bench:api`, in their own process: bare Express (the yardstick) with
 * the same 50-item JSON the service's list_items answered (serialized per request with res.json,
 * as the service does), and a small JSON answer for GET and for POST with a parsed JSON body; and
 * the same small answers from bare node:http, the floor under any framework (the service serves
 * its operations through Express, so bare Express is the yardstick; node:http shows the limit).
 * Also the board page (issue 12): the HTML the service answered an anonymous visitor, sent as a
 * string from bare Express with the same content type.
 * Usage: api-baseline.ts <file with the captured list_items body> <file with the board page>;
 * prints `listening <express port> <node:http port>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

const captured = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as unknown;
const small = { status: 'planned', changed: true };
const boardPage = readFileSync(process.argv[3]!, 'utf8');

const app = express();
app.get('/items', (_req, res) => {
  res.json(captured);
});
app.get('/board', (_req, res) => {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(boardPage);
});
app.get('/small', (_req, res) => {
  res.json(small);
});
app.post('/small', express.json(), (req, res) => {
  res.json({ ...small, status: (req.body as { status?: string }).status ?? small.status });
});

function sendSmall(res: import('node:http').ServerResponse, body: unknown) {
  const json = JSON.stringify(body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

const raw = createServer((req, res) => {
  if (req.url !== '/small') {
    res.statusCode = 404;
    res.end();
  } else if (req.method === 'POST') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { status?: string };
      sendSmall(res, { ...small, status: body.status ?? small.status });
    });
  } else {
    sendSmall(res, small);
  }
});

const server = app.listen(0, '127.0.0.1', () => {
  raw.listen(0, '127.0.0.1', () => {
    const port = (s: { address(): unknown }) => (s.address() as AddressInfo).port;
    console.log(`listening ${port(server)} ${port(raw)}`);
  });
});
process.on('SIGTERM', () => {
  raw.close();
  server.close(() => process.exit(0));
});
