/**
 * The SDK client whose next `tools/call` POST is held mid-body while something happens (a
 * revocation), with a static bearer token or the SDK's OAuth client provider; it records every
 * answer its transport received.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The SDK client whose next `tools/call` POST sends its headers and ten bytes, then waits for
 * `meanwhile` (given 300 ms for the headers to be authenticated) before the rest of its body.
 */
export async function heldClient(
  url: string,
  auth: { token?: string; authProvider?: OAuthClientProvider },
) {
  let meanwhile: (() => Promise<void>) | undefined;
  const answers: { url: string; status: number; challenge: string | null }[] = [];
  const fetchFn = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const res = await heldFetch(input, init);
    answers.push({
      url: String(input),
      status: res.status,
      challenge: res.headers.get('www-authenticate'),
    });
    return res;
  };
  const heldFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const body = init?.body;
    const hold = meanwhile;
    if (!hold || typeof body !== 'string' || !body.includes('"tools/call"')) {
      return fetch(input, init);
    }
    meanwhile = undefined;
    const bytes = new TextEncoder().encode(body);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0) {
          sent = 10;
          controller.enqueue(bytes.slice(0, 10));
          return;
        }
        await sleep(300);
        await hold();
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    return fetch(input, { ...init, body: stream, duplex: 'half' } as RequestInit);
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(auth.token ? { requestInit: { headers: { authorization: `Bearer ${auth.token}` } } } : {}),
    ...(auth.authProvider ? { authProvider: auth.authProvider } : {}),
    fetch: fetchFn,
  });
  const client = new Client({ name: 'held-assistant', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    /** status and WWW-Authenticate of every answer, in order */
    answers,
    /** the next tool call's body waits for `run` */
    holdNextCall(run: () => Promise<void>) {
      meanwhile = run;
    },
  };
}
