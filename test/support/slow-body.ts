/**
 * A request whose body arrives late, as from a slow client: its headers and the first bytes of
 * its body are sent, the server authenticates it, then `meanwhile()` runs (a revocation, say)
 * and only then the rest of the body follows. What the server answered, as text.
 */
import http from 'node:http';

/** how long the headers have to reach the server and be authenticated before `meanwhile` */
const HEADERS_IN_MS = 300;

export function slowPost(
  url: string,
  headers: Record<string, string>,
  body: string,
  meanwhile: () => Promise<void>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...headers,
        'content-length': Buffer.byteLength(body),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.write(body.slice(0, 10));
    setTimeout(() => {
      meanwhile()
        .then(() => req.end(body.slice(10)))
        .catch(reject);
    }, HEADERS_IN_MS);
  });
}
