/**
 * The KurrentDB adapter's pure mapping, pinned without a server. Issue 2: "The real adapters
 * compile and their unit-level mapping code is tested".
 */
import {
  AccessDeniedError,
  type AllStreamResolvedEvent,
  CancelledError,
  DeadlineExceededError,
  EVENT_TYPE,
  STREAM_NAME,
  UnavailableError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { expect } from 'chai';
import fc from 'fast-check';
import {
  createKurrentEventStore,
  normalizeConnectionString,
  redactConnectionString,
} from '../../src/eventstore/kurrentdb/index.js';
import {
  KurrentMappingError,
  fromAllStream,
  fromStreamState,
  isSystemEvent,
  mapAppendError,
  mapClientError,
  toEventData,
  toRecordedEvent,
  toServerFilter,
  toStreamState,
} from '../../src/eventstore/kurrentdb/mapping.js';
import {
  InvalidPositionError,
  decodePosition,
  encodePosition,
} from '../../src/eventstore/kurrentdb/position.js';
import {
  type EventMetadata,
  EventStoreUnavailableError,
  WrongExpectedRevisionError,
} from '../../src/eventstore/types.js';

const U64_MAX = (1n << 64n) - 1n;
const METADATA: EventMetadata = {
  actor: 'user-1',
  via: 'pat:ci',
  occurredAt: 1_700_000_000_000,
  correlationId: 'corr-1',
  causationId: null,
};
const EVENT_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

function resolved(overrides: Record<string, unknown> = {}): AllStreamResolvedEvent {
  return {
    event: {
      streamId: 'item-w1.A-1',
      id: EVENT_ID,
      isJson: true,
      revision: 4n,
      type: 'ItemCreated',
      created: new Date(1_600_000_000_000),
      data: { title: 'Dark mode' },
      metadata: METADATA,
      position: { commit: 700n, prepare: 650n },
      ...overrides,
    },
  } as unknown as AllStreamResolvedEvent;
}

const u64 = fc.bigInt({ min: 0n, max: U64_MAX });
const positionArb = fc.record({ commit: u64, prepare: u64 });

describe('When a KurrentDB $all position is encoded as one bigint', () => {
  it('decodes back to the same commit and prepare for any pair of 64-bit values', () => {
    fc.assert(
      fc.property(positionArb, (position) => {
        expect(decodePosition(encodePosition(position))).to.deep.equal(position);
      }),
    );
  });

  it('orders like the server: by commit, then by prepare', () => {
    fc.assert(
      fc.property(positionArb, positionArb, (a, b) => {
        const serverOrder =
          a.commit === b.commit
            ? Math.sign(Number(a.prepare - b.prepare))
            : a.commit < b.commit
              ? -1
              : 1;
        const encodedA = encodePosition(a);
        const encodedB = encodePosition(b);
        const encodedOrder = encodedA === encodedB ? 0 : encodedA < encodedB ? -1 : 1;
        expect(encodedOrder).to.equal(serverOrder);
      }),
    );
  });

  it('keeps values above 2^63 exact (unsigned 64-bit halves)', () => {
    const position = { commit: (1n << 63n) + 5n, prepare: U64_MAX };
    const encoded = encodePosition(position);
    expect(encoded).to.equal((((1n << 63n) + 5n) << 64n) | U64_MAX);
    expect(decodePosition(encoded)).to.deep.equal(position);
    expect(encoded > encodePosition({ commit: 1n << 63n, prepare: U64_MAX })).to.equal(true);
  });

  it('maps the start of the log to 0n', () => {
    expect(encodePosition({ commit: 0n, prepare: 0n })).to.equal(0n);
    expect(decodePosition(0n)).to.deep.equal({ commit: 0n, prepare: 0n });
  });

  it('rejects values that are not positions with a typed error', () => {
    expect(() => encodePosition({ commit: -1n, prepare: 0n })).to.throw(InvalidPositionError);
    expect(() => encodePosition({ commit: 0n, prepare: U64_MAX + 1n })).to.throw(
      InvalidPositionError,
    );
    expect(() => decodePosition(-1n)).to.throw(InvalidPositionError);
    expect(() => decodePosition(1n << 128n)).to.throw(InvalidPositionError);
  });
});

describe('When an expected revision is sent to KurrentDB', () => {
  it('maps the three states to the client constants and a number to a bigint', () => {
    expect(toStreamState('any')).to.equal('any');
    expect(toStreamState('no_stream')).to.equal('no_stream');
    expect(toStreamState('stream_exists')).to.equal('stream_exists');
    expect(toStreamState(0)).to.equal(0n);
    expect(toStreamState(41)).to.equal(41n);
  });

  it('round-trips through the client representation', () => {
    for (const expected of ['any', 'no_stream', 'stream_exists', 0, 7] as const) {
      expect(fromStreamState(toStreamState(expected))).to.equal(expected);
    }
  });

  it('refuses a negative or fractional revision instead of sending it', () => {
    expect(() => toStreamState(-1)).to.throw(KurrentMappingError);
    expect(() => toStreamState(1.5)).to.throw(KurrentMappingError);
  });
});

describe('When KurrentDB rejects an append for a wrong expected version', () => {
  it("becomes the port's WrongExpectedRevisionError with the actual revision as a number", () => {
    const clientError = new WrongExpectedVersionError(undefined, {
      streamName: 'item-w1.A-1',
      expected: 3n,
      current: 5n,
    });
    const mapped = mapAppendError(clientError, 'item-w1.A-1', 3);
    expect(mapped).to.be.instanceOf(WrongExpectedRevisionError);
    const error = mapped as WrongExpectedRevisionError;
    expect(error.streamId).to.equal('item-w1.A-1');
    expect(error.expected).to.equal(3);
    expect(error.actual).to.equal(5);
  });

  it("reports a missing stream as actual 'no_stream'", () => {
    const clientError = new WrongExpectedVersionError(undefined, {
      streamName: 'item-w1.A-2',
      expected: 'stream_exists',
      current: 'no_stream',
    });
    const error = mapAppendError(
      clientError,
      'item-w1.A-2',
      'stream_exists',
    ) as WrongExpectedRevisionError;
    expect(error).to.be.instanceOf(WrongExpectedRevisionError);
    expect(error.expected).to.equal('stream_exists');
    expect(error.actual).to.equal('no_stream');
  });

  it('passes any other error through unchanged', () => {
    const other = new AccessDeniedError();
    expect(mapAppendError(other, 's', 'any')).to.equal(other);
  });
});

describe('When the client reports a KurrentDB it cannot reach (a dropped connection)', () => {
  // Expected: "appends/reads during an outage → EventStoreUnavailableError (HTTP 503 with
  // Retry-After)", and subscriptions resume instead of stopping
  // a grpc-js ServiceError as the client receives it (metadata left out: unused here)
  const grpc = (code: number, details: string) =>
    Object.assign(new Error(`${code} ${details}`), { code, details }) as never;
  const transient = {
    'UnavailableError (14 UNAVAILABLE)': new UnavailableError(grpc(14, 'Connection dropped')),
    'CancelledError (1 CANCELLED)': new CancelledError(grpc(1, 'Cancelled on client')),
    'DeadlineExceededError (4)': new DeadlineExceededError(grpc(4, 'Deadline exceeded')),
    // another copy of the client in node_modules: same type and code, another class
    'an error of the client type "unavailable"': Object.assign(new Error('14 UNAVAILABLE'), {
      type: 'unavailable',
      code: 14,
    }),
    'a raw gRPC error with status 14': grpc(14, 'Connection dropped'),
  };
  for (const [what, error] of Object.entries(transient)) {
    it(`maps ${what} to EventStoreUnavailableError, keeping it as the cause`, () => {
      const mapped = mapClientError(error);
      expect(mapped).to.be.instanceOf(EventStoreUnavailableError);
      expect((mapped as Error).cause).to.equal(error);
      expect((mapped as Error).message).to.include((error as Error).message);
      expect(mapAppendError(error, 's', 3)).to.be.instanceOf(EventStoreUnavailableError);
    });
  }

  it('answers appends and reads with EventStoreUnavailableError (HTTP 503, not 500)', async () => {
    const dropped = () => new UnavailableError(grpc(14, 'Connection dropped'));
    // the client's calls as they fail while the server is paused: a promise, a stream of reads
    const failingReads = () => ({
      // biome-ignore lint/correctness/useYield: the read fails before its first event
      async *[Symbol.asyncIterator]() {
        throw dropped();
      },
    });
    const client = {
      appendToStream: () => Promise.reject(dropped()),
      readStream: failingReads,
      readAll: failingReads,
    };
    const store = createKurrentEventStore(client as never);
    const calls = {
      appendToStream: () =>
        store.appendToStream('s', [{ type: 'T', data: {}, metadata: METADATA }]),
      readStream: () => store.readStream('s'),
      readAll: () => store.readAll(),
      headPosition: () => store.headPosition(),
    };
    for (const [name, call] of Object.entries(calls)) {
      const thrown = await call().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(thrown, name).to.be.instanceOf(EventStoreUnavailableError);
    }
  });

  it('passes errors that are not about reaching the store through unchanged', () => {
    for (const other of [
      new AccessDeniedError(),
      new Error('boom'),
      Object.assign(new Error('5 NOT_FOUND'), { code: 5, details: 'x' }),
      new KurrentMappingError('binary'),
    ]) {
      expect(mapClientError(other)).to.equal(other);
    }
  });
});

describe('When a new event is converted for the client', () => {
  it('keeps our id, type, data and metadata as JSON', () => {
    const data = toEventData({
      id: EVENT_ID,
      type: 'ItemCreated',
      data: { a: 1 },
      metadata: METADATA,
    });
    expect(data).to.deep.include({
      id: EVENT_ID,
      contentType: 'application/json',
      type: 'ItemCreated',
    });
    expect(data.data).to.deep.equal({ a: 1 });
    expect(data.metadata).to.deep.equal(METADATA);
  });

  it('generates an id when none is given and stores undefined data as null', () => {
    const data = toEventData({ type: 'Pinged', data: undefined, metadata: METADATA });
    expect(data.id).to.match(/^[0-9a-f-]{36}$/);
    expect(data.data).to.equal(null);
  });
});

describe('When a resolved event is mapped to a RecordedEvent', () => {
  it('converts revision and position and keeps the envelope', () => {
    expect(toRecordedEvent(resolved())).to.deep.equal({
      id: EVENT_ID,
      type: 'ItemCreated',
      data: { title: 'Dark mode' },
      metadata: METADATA,
      streamId: 'item-w1.A-1',
      revision: 4,
      position: (700n << 64n) | 650n,
    });
  });

  it('gives events written without our metadata a well-formed envelope from server facts', () => {
    const event = toRecordedEvent(resolved({ metadata: undefined }));
    expect(event?.metadata).to.deep.equal({
      actor: null,
      occurredAt: 1_600_000_000_000,
      correlationId: EVENT_ID,
      causationId: null,
    });
  });

  it('falls back to the commit position when the server sends no per-event position', () => {
    const input = { ...resolved({ position: undefined }), commitPosition: 900n };
    expect(toRecordedEvent(input)?.position).to.equal((900n << 64n) | 900n);
  });

  it('returns undefined for an empty slot and refuses binary events with a typed error', () => {
    expect(toRecordedEvent({})).to.equal(undefined);
    expect(() => toRecordedEvent(resolved({ isJson: false, data: new Uint8Array([1]) }))).to.throw(
      KurrentMappingError,
    );
  });

  it('refuses a revision the port cannot hold exactly', () => {
    expect(() => toRecordedEvent(resolved({ revision: 1n << 60n }))).to.throw(KurrentMappingError);
  });
});

describe('When a port filter is sent to the server', () => {
  it('filters on stream name prefixes when any are given', () => {
    const filter = toServerFilter({
      streamPrefixes: ['item-', 'person-'],
      eventTypes: ['ItemCreated'],
    });
    expect(filter.filterOn).to.equal(STREAM_NAME);
    expect(filter).to.have.property('prefixes').that.deep.equals(['item-', 'person-']);
  });

  it('filters on exact event types (not type prefixes) when only types are given', () => {
    const filter = toServerFilter({ eventTypes: ['ItemCreated', 'Note.Added'] });
    expect(filter.filterOn).to.equal(EVENT_TYPE);
    const regex = new RegExp((filter as { regex: string }).regex);
    expect(regex.test('ItemCreated')).to.equal(true);
    expect(regex.test('Note.Added')).to.equal(true);
    expect(regex.test('ItemCreatedV2')).to.equal(false);
    expect(regex.test('NoteXAdded')).to.equal(false);
  });

  it('excludes system events when there is no filter or an empty one', () => {
    for (const filter of [
      toServerFilter(),
      toServerFilter({ streamPrefixes: [], eventTypes: [] }),
    ]) {
      expect(filter.filterOn).to.equal(EVENT_TYPE);
      const regex = new RegExp((filter as { regex: string }).regex);
      expect(regex.test('$statistics-collected')).to.equal(false);
      expect(regex.test('ItemCreated')).to.equal(true);
    }
  });
});

describe('When $all events reach the port', () => {
  const at = (commit: bigint) => resolved({ position: { commit, prepare: commit } });
  const encoded = (commit: bigint) => (commit << 64n) | commit;

  it('recognises system events by type or by stream', () => {
    expect(
      isSystemEvent({ streamId: '$stats-127.0.0.1:2113', type: '$statistics-collected' }),
    ).to.equal(true);
    expect(isSystemEvent({ streamId: '$$item-1', type: 'ItemCreated' })).to.equal(true);
    expect(isSystemEvent({ streamId: 'item-1', type: '$>' })).to.equal(true);
    expect(isSystemEvent({ streamId: 'item-1', type: 'ItemCreated' })).to.equal(false);
  });

  it('skips system events, including binary ones, without failing', () => {
    expect(fromAllStream(resolved({ type: '$metadata', isJson: false }), undefined)).to.equal(
      undefined,
    );
    expect(fromAllStream(resolved({ streamId: '$projections-x' }), undefined)).to.equal(undefined);
  });

  it('treats the checkpoint as exclusive although the server reads from it inclusively', () => {
    expect(fromAllStream(at(100n), encoded(100n))).to.equal(undefined);
    expect(fromAllStream(at(99n), encoded(100n))).to.equal(undefined);
    expect(fromAllStream(at(101n), encoded(100n))?.position).to.equal(encoded(101n));
    expect(fromAllStream(at(5n), undefined)?.position).to.equal(encoded(5n));
  });

  it('applies the whole filter, including the part the server could not', () => {
    const filter = { streamPrefixes: ['item-'], eventTypes: ['ItemClosed'] };
    expect(fromAllStream(resolved(), undefined, filter)).to.equal(undefined);
    expect(fromAllStream(resolved({ type: 'ItemClosed' }), undefined, filter)?.type).to.equal(
      'ItemClosed',
    );
    expect(
      fromAllStream(resolved({ streamId: 'note-1', type: 'ItemClosed' }), undefined, filter),
    ).to.equal(undefined);
  });
});

describe('When a connection string is configured', () => {
  it('accepts the EventStoreDB esdb:// scheme as kurrentdb://', () => {
    expect(normalizeConnectionString('esdb://a:2113?tls=false')).to.equal(
      'kurrentdb://a:2113?tls=false',
    );
    expect(normalizeConnectionString('esdb+discover://a:2113')).to.equal(
      'kurrentdb+discover://a:2113',
    );
    expect(normalizeConnectionString('kurrentdb://a:2113')).to.equal('kurrentdb://a:2113');
  });

  it('never prints credentials', () => {
    expect(redactConnectionString('kurrentdb://admin:changeit@n1:2113,n2:2113')).to.equal(
      'kurrentdb://***@n1:2113,n2:2113',
    );
    expect(redactConnectionString('kurrentdb://n1:2113')).to.equal('kurrentdb://n1:2113');
  });
});
