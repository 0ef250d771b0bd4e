/**
 * The receivers of bench:webhooks, in a process of their own so they do not share the service's
 * thread: `count` plain node:http servers on 127.0.0.1 answering 204. Prints `ready <ports>`,
 * then one line per request: `r <port> <wall-clock ms> <marker>`, where the marker is the first
 * tag of the message's item (the bench tags items `m<n>`) or `-`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const count = Number(process.argv[2] ?? 1);
const ports: number[] = [];
let lines: string[] = [];

function flush(): void {
  if (lines.length === 0) return;
  process.stdout.write(`${lines.join('\n')}\n`);
  lines = [];
}
setInterval(flush, 5).unref();

for (let i = 0; i < count; i++) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      let marker = '-';
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        marker = body?.data?.item?.tagIds?.[0] ?? body?.marker ?? '-';
      } catch {
        // not JSON: counted all the same
      }
      lines.push(`r ${port} ${at.toFixed(2)} ${marker}`);
      res.statusCode = 204;
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  ports.push(port);
}
process.stdout.write(`ready ${ports.join(',')}\n`);
process.on('SIGTERM', () => {
  flush();
  process.exit(0);
});
