/**
 * A name server on 127.0.0.1 for the target checks' DNS (src/webhooks/delivery/dns.ts): it
 * records every question, and answers each A or AAAA question from `records`, NXDOMAIN for a
 * name it does not hold, or nothing at all for a name in `silent` (a webhook owner's server that
 * never answers). Only the wire format the checks need: one question per query, answers by pointer.
 */
import { createSocket } from 'node:dgram';
import ipaddr from 'ipaddr.js';

export interface NameServer {
  /** `127.0.0.1:port`, for dns.ts `servers` */
  readonly address: string;
  /** the names asked, in order (`name A`, `name AAAA`) */
  readonly asked: string[];
  records: Map<string, string[]>;
  /** names asked of it that get no answer */
  silent: Set<string>;
  close(): Promise<void>;
}

const A = 1;
const AAAA = 28;

export async function startNameServer(): Promise<NameServer> {
  const socket = createSocket('udp4');
  const server: NameServer = {
    address: '',
    asked: [],
    records: new Map(),
    silent: new Set(),
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (query, from) => {
    const { name, type, end } = question(query);
    server.asked.push(`${name} ${type === A ? 'A' : type === AAAA ? 'AAAA' : type}`);
    if (server.silent.has(name)) return;
    const known = server.records.get(name);
    const rdata = (known ?? [])
      .map((text) => ipaddr.parse(text))
      .filter((ip) => (ip.kind() === 'ipv4' ? A : AAAA) === type)
      .map((ip) => Buffer.from(ip.toByteArray()));
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the query's id
    header.writeUInt16BE(known ? 0x8180 : 0x8183, 2); // a recursive answer; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(rdata.length, 6);
    const answers = rdata.map((bytes) => {
      const record = Buffer.alloc(12 + bytes.length);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      record.writeUInt16BE(type, 2);
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(bytes.length, 10);
      bytes.copy(record, 12);
      return record;
    });
    socket.send(
      Buffer.concat([header, query.subarray(12, end), ...answers]),
      from.port,
      from.address,
    );
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  Object.assign(server, { address: `127.0.0.1:${socket.address().port}` });
  return server;
}

/** the question's name, type, and where it ends */
function question(query: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (query[at]! > 0) {
    const length = query[at]!;
    labels.push(query.toString('ascii', at + 1, at + 1 + length));
    at += 1 + length;
  }
  const type = query.readUInt16BE(at + 1);
  return { name: labels.join('.').toLowerCase(), type, end: at + 5 };
}
