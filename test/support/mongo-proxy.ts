/**
 * A TCP proxy in front of a MongoDB server that can make the server go away at a chosen moment:
 * right after it answered a given command, as a lost server, a failover or a cut network does
 * between two writes of one request. Open connections are cut and new ones refused until
 * `restore()`. It can also hold commands until several have arrived, so that requests racing
 * each other meet at a chosen point whatever the timing. The fault is at the edge (the network);
 * the driver and everything above it run as in production.
 *
 * Connect with `directConnection=true` (the `url` does): a replica set member names its own
 * address in `hello`, and the driver would go there past the proxy.
 */
import { createServer, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { BSON, type Document } from 'mongodb';

const OP_MSG = 2013;

export interface MongoProxy {
  /** the server through the proxy */
  url: string;
  /**
   * Arms the fault: once a command `matches` has been answered, the server is gone. Resolves
   * with that command when it is.
   */
  goneAfter(matches: (command: Document) => boolean): Promise<Document>;
  /**
   * Holds every command that `matches` (and what follows it on its connection) until `count` of
   * them are held, then lets them all through. Resolves with them once it has.
   */
  holdUntil(matches: (command: Document) => boolean, count: number): Promise<Document[]>;
  /** the server is back: connections are taken again */
  restore(): void;
  close(): Promise<void>;
}

/** the command document of an OP_MSG (its body section, kind 0), or null for anything else */
function commandOf(message: Buffer): Document | null {
  if (message.readInt32LE(12) !== OP_MSG) return null;
  // header (16 bytes), flag bits (4); the body section starts with its kind byte
  let at = 20;
  while (at < message.length) {
    const kind = message[at];
    if (kind === 0) {
      const size = message.readInt32LE(at + 1);
      return BSON.deserialize(message.subarray(at + 1, at + 1 + size));
    }
    at += 1 + message.readInt32LE(at + 1); // a document sequence (kind 1): its own size
  }
  return null;
}

/** calls `each` with every whole wire message of a byte stream, as it completes */
function messages(each: (message: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
      const length = pending.readInt32LE(0);
      each(pending.subarray(0, length));
      pending = pending.subarray(length);
    }
  };
}

export async function startMongoProxy(target: { host: string; port: number }): Promise<MongoProxy> {
  const open = new Set<Socket>();
  let gone = false;
  /** the armed fault: the request id of the matching command, once seen */
  let armed: {
    matches: (command: Document) => boolean;
    requestId?: number;
    command?: Document;
    fired: (command: Document) => void;
  } | null = null;

  /** the armed hold: what each held connection sends once released */
  let hold: {
    matches: (command: Document) => boolean;
    count: number;
    held: { command: Document; release: () => void }[];
    released: (commands: Document[]) => void;
  } | null = null;

  const goAway = (command: Document) => {
    const fired = armed?.fired;
    armed = null;
    gone = true;
    for (const socket of open) socket.destroy();
    open.clear();
    fired?.(command);
  };

  const server = createServer((client) => {
    if (gone) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    const forward = (message: Buffer) => {
      if (armed && armed.requestId === undefined) {
        const command = commandOf(message);
        if (command && armed.matches(command)) {
          armed.requestId = message.readInt32LE(4);
          armed.command = command;
        }
      }
      upstream.write(message);
    };
    /** this connection's messages held back, in order, while one of its commands is held */
    let queued: Buffer[] | null = null;
    client.on(
      'data',
      messages((message) => {
        if (queued) {
          queued.push(message);
          return;
        }
        const command = hold ? commandOf(message) : null;
        if (!hold || !command || !hold.matches(command)) {
          forward(message);
          return;
        }
        const mine: Buffer[] = [message];
        queued = mine;
        hold.held.push({
          command,
          release: () => {
            queued = null;
            for (const each of mine) forward(each);
          },
        });
        if (hold.held.length < hold.count) return;
        const { held, released } = hold;
        hold = null;
        for (const each of held) each.release();
        released(held.map((each) => each.command));
      }),
    );
    upstream.on(
      'data',
      messages((message) => {
        const command = armed?.command;
        if (!command || message.readInt32LE(8) !== armed?.requestId) {
          client.write(message);
          return;
        }
        // the answer to the armed command: the server goes once it has left for the client
        client.write(message, () => goAway(command));
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `mongodb://127.0.0.1:${port}/?directConnection=true`,
    goneAfter(matches) {
      return new Promise((resolve) => {
        armed = { matches, fired: resolve };
      });
    },
    holdUntil(matches, count) {
      return new Promise((resolve) => {
        hold = { matches, count, held: [], released: resolve };
      });
    },
    restore() {
      gone = false;
    },
    async close() {
      armed = null;
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
