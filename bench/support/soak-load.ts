/** The soak's mixed load (one request per call, chosen by `n`) and its memory readings. */

export interface SoakTarget {
  origin: string;
  /** the bench maker's token */
  token: string;
  itemKeys: string[];
  /** callers for submissions (each within the per-caller limit) */
  callerTokens: string[];
  board: { slug: string; product: string };
}

const QUERIES = ['faster loading', 'export to csv', 'dark mode', 'slow search', 'billing'];

/**
 * Out of every 20 requests: 10 list/get reads, 4 searches, 2 submissions, 2 replies and 2
 * status changes — a read-heavy board with a steady trickle of writes (mix `growing`). Mix
 * `steady` makes the submissions and replies status changes too: the data stays the same size,
 * so what the process still gains is what it holds on to (the leak check). With `growing`,
 * every submission and reply is a new document in the in-memory read models and the search
 * indexes: RSS grows with the data, as it should.
 */
export type SoakMix = 'steady' | 'growing';

export async function mixedRequest(
  target: SoakTarget,
  n: number,
  mix: SoakMix = 'growing',
): Promise<{ ok: boolean; write: boolean }> {
  const items = `${target.origin}/v1/workspaces/${target.board.slug}/products/${target.board.product}/items`;
  const item = `${items}/${target.itemKeys[n % target.itemKeys.length]}`;
  const auth = { authorization: `Bearer ${target.token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const slot = n % 20;
  const adds = mix === 'growing';
  let response: Response;
  let write = false;
  if (slot < 5) response = await fetch(`${items}?pageSize=50`, { headers: auth });
  else if (slot < 10) response = await fetch(item, { headers: auth });
  else if (slot < 14) {
    const q = encodeURIComponent(QUERIES[n % QUERIES.length]!);
    response = await fetch(`${items}/search?q=${q}&limit=10`, { headers: auth });
  } else if (slot < 16 && adds) {
    write = true;
    const caller = target.callerTokens[n % target.callerTokens.length];
    response = await fetch(
      `${target.origin}/v1/public/${target.board.slug}/${target.board.product}/feedback`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${caller}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body: `Soak submission ${n}: the page ${n % 7} is slow` }),
      },
    );
  } else if (slot < 18 && adds) {
    write = true;
    response = await fetch(`${item}/replies`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ body: `Soak reply ${n}` }),
    });
  } else {
    write = true;
    response = await fetch(`${item}/status`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ status: n % 2 === 0 ? 'planned' : 'in-progress' }),
    });
  }
  await response.arrayBuffer();
  // 429 is the submission limit doing its job, not a failure of the service
  return { ok: response.ok || response.status === 429, write };
}

/** The service's own figures, from its /metrics (loopback). */
export async function memoryOf(origin: string): Promise<{ rss: number; heapUsed: number }> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    rss: read('process_resident_memory_bytes'),
    heapUsed: read('nodejs_heap_size_used_bytes'),
  };
}
