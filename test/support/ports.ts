/**
 * Ports for servers that must know theirs up front or bind it again after a stop: an OAuth
 * issuer across a restart (the base URL is the issuer and the tokens' audience), a child
 * process's FEEDBACK_PORT, a webhook target that goes down and comes back.
 *
 * A port the kernel hands out (`listen(0)`) is from the ephemeral range, where every outgoing
 * connection of every process on the machine takes its local port too: between the moment such a
 * port is found free (or a server on it stopped) and the moment it is bound again, another test
 * run's connection could take it, and the start failed with EADDRINUSE. These ports come from
 * below that range, which the kernel never hands out by itself, at random, each checked by
 * binding it; and a bind of a known port is retried a while, past a check that held it a moment.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

/** the lowest port picked; below it are services' well-known and registered ports */
const LOWEST = 10_000;
/** how long a port bound again may stay taken before the bind fails */
const REBIND_MS = 10_000;

/** where the kernel's ephemeral range starts (Linux's own file; else the lowest default, BSD's) */
function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/);
    if (Number(low) > LOWEST + 1000) return Number(low);
  } catch {
    // not Linux
  }
  return 32_768;
}

const HIGHEST = ephemeralStart() - 1;

function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

const taken = (error: unknown) =>
  (error as { code?: string }).code === 'EADDRINUSE' ||
  (error as { code?: string }).code === 'EACCES';

/** `server` listening on `host` at a port outside the ephemeral range; resolves to the port */
export async function listenOnFreePort(server: Server, host = '127.0.0.1'): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST + 1));
    try {
      await listenOn(server, port, host);
      return port;
    } catch (error) {
      if (!taken(error)) throw error;
    }
  }
  throw new Error(`no free port between ${LOWEST} and ${HIGHEST} in 100 tries`);
}

/** the ports freePort gave in this process: each one is for one server (several asked at once) */
const given = new Set<number>();

/** a port on 127.0.0.1 free at the moment of asking, outside the ephemeral range */
export async function freePort(): Promise<number> {
  for (;;) {
    const server = createServer();
    const port = await listenOnFreePort(server);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (given.has(port)) continue;
    given.add(port);
    return port;
  }
}

/**
 * `bind()` again, for a port this test chose and let go (a restart): retried while the port is
 * taken, for up to 10 s, as another run's freePort may be checking it at that moment
 */
export async function bindAgain<T>(bind: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + REBIND_MS;
  for (;;) {
    try {
      return await bind();
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
