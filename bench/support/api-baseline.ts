/**
 * The bare Express baselines of `bench:api`, in their own process: the same 50-item JSON the
 * service's list_items answered (serialized per request with res.json, as the service does),
 * and a small JSON answer for GET and for POST with a parsed JSON body.
 * Usage: api-baseline.ts <file with the captured list_items body>; prints `listening <port>`.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import express from 'express';

const captured = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as unknown;
const small = { status: 'planned', changed: true };

const app = express();
app.get('/items', (_req, res) => {
  res.json(captured);
});
app.get('/small', (_req, res) => {
  res.json(small);
});
app.post('/small', express.json(), (req, res) => {
  res.json({ ...small, status: (req.body as { status?: string }).status ?? small.status });
});

const server = app.listen(0, '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
