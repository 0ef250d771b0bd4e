/**
 * The watchdog that notices a MongoDB client whose server monitor has wedged
 * (src/readstore/mongodb/heartbeat-watchdog.ts): the rule is "a check pending longer than the
 * longest a healthy check can last is wedged; report it once". Fed with the driver's own
 * heartbeat event classes on an emitter, as a MongoClient emits them, and a clock of its own.
 */
import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import {
  ServerHeartbeatFailedEvent,
  ServerHeartbeatStartedEvent,
  ServerHeartbeatSucceededEvent,
} from 'mongodb';
import {
  CONNECT_TIMEOUT_MS,
  HEARTBEAT_FREQUENCY_MS,
  LONGEST_CHECK_MS,
} from '../../../src/readstore/mongodb/client.js';
import { watchHeartbeats } from '../../../src/readstore/mongodb/heartbeat-watchdog.js';

const A = '127.0.0.1:27018';
const B = '127.0.0.1:27019';

function world() {
  const client = new EventEmitter();
  let time = 1_000_000;
  const wedged: { address: string; pendingMs: number }[] = [];
  const watchdog = watchHeartbeats(client, {
    longestCheckMs: LONGEST_CHECK_MS,
    everyMs: 60_000,
    now: () => time,
    onWedged: (address, pendingMs) => wedged.push({ address, pendingMs }),
  });
  // the driver's event classes have internal constructors; the watchdog reads connectionId
  const event = <T>(kind: new (...args: never[]) => T, address: string) =>
    Object.assign(Object.create(kind.prototype), { connectionId: address }) as T;
  return {
    client,
    wedged,
    watchdog,
    pass: (ms: number) => {
      time += ms;
      watchdog.inspect();
    },
    started: (address = A) =>
      client.emit('serverHeartbeatStarted', event(ServerHeartbeatStartedEvent, address)),
    succeeded: (address = A) =>
      client.emit('serverHeartbeatSucceeded', event(ServerHeartbeatSucceededEvent, address)),
    failed: (address = A) =>
      client.emit('serverHeartbeatFailed', event(ServerHeartbeatFailedEvent, address)),
  };
}

describe('MongoDB read store: the heartbeat watchdog', () => {
  it('allows more than the longest healthy check: connect + handshake, or a streaming hello', () => {
    expect(LONGEST_CHECK_MS).to.be.above(2 * CONNECT_TIMEOUT_MS);
    expect(LONGEST_CHECK_MS).to.be.above(HEARTBEAT_FREQUENCY_MS + CONNECT_TIMEOUT_MS);
  });

  it('reports a check still pending after the longest healthy check, once, with its server', () => {
    const w = world();
    w.started();
    w.pass(LONGEST_CHECK_MS);
    expect(w.wedged, 'at the bound it may still end by itself').to.deep.equal([]);
    w.pass(5_000);
    expect(w.wedged).to.deep.equal([{ address: A, pendingMs: LONGEST_CHECK_MS + 5_000 }]);
    w.pass(60_000);
    expect(w.wedged, 'reported once, not on every inspection').to.have.length(1);
    w.watchdog.stop();
  });

  it('never reports checks that end, succeeded or failed, however many there are', () => {
    const w = world();
    for (let i = 0; i < 20; i++) {
      w.started();
      w.pass(9_000);
      if (i % 2 === 0) w.succeeded();
      else w.failed();
      w.pass(10_000);
    }
    expect(w.wedged).to.deep.equal([]);
    w.watchdog.stop();
  });

  it('times a streaming monitor from its latest start: a new check starts as one succeeds', () => {
    const w = world();
    w.started();
    for (let i = 0; i < 10; i++) {
      w.pass(10_000); // the server answers each awaited hello after maxAwaitTimeMS
      w.succeeded();
      w.started();
    }
    expect(w.wedged).to.deep.equal([]);
    w.pass(LONGEST_CHECK_MS + 1);
    expect(w.wedged.map((x) => x.address)).to.deep.equal([A]);
    w.watchdog.stop();
  });

  it('watches each server on its own', () => {
    const w = world();
    w.started(A);
    w.started(B);
    w.pass(20_000);
    w.succeeded(B);
    w.pass(15_000);
    expect(w.wedged.map((x) => x.address)).to.deep.equal([A]);
    w.watchdog.stop();
  });

  it('stops listening when stopped', () => {
    const w = world();
    w.watchdog.stop();
    expect(w.client.listenerCount('serverHeartbeatStarted')).to.equal(0);
    expect(w.client.listenerCount('serverHeartbeatSucceeded')).to.equal(0);
    expect(w.client.listenerCount('serverHeartbeatFailed')).to.equal(0);
    w.started();
    w.pass(LONGEST_CHECK_MS * 2);
    expect(w.wedged).to.deep.equal([]);
  });
});
