/**
 * Projector versions (projections/shared/projector.ts): "A process that finds the read model
 * built by another version drops it and replays the log into it, as `rebuild` does, so existing
 * data picks the change up on the next start."
 */
import { expect } from 'chai';
import type { Projector } from '../../projections/shared/projector.js';
import { createProjectionEngine, type ProjectionEngine } from '../../src/read/projection-engine.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { counter, counterProjector } from '../support/counter.js';
import { type LogLines, logLines } from '../support/log-lines.js';
import { openTestStores, type TestStores } from '../support/stores.js';

describe('When a projector starts with a version other than the one that built its read model', () => {
  let stores: TestStores;
  let engine: ProjectionEngine | undefined;
  beforeEach(async () => {
    stores = await openTestStores();
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    await stores.cleanup();
  });

  const versioned = (version: number | undefined, applied: string[]): Projector => ({
    ...counterProjector('counters', applied),
    ...(version === undefined ? {} : { version }),
  });
  async function run(projector: Projector, log?: LogLines): Promise<void> {
    engine = createProjectionEngine({
      eventStore: stores.eventStore,
      readStore: stores.readStore,
      projectors: [projector],
      logger: log?.logger ?? { info() {}, error() {} },
    });
    await engine.start();
    await engine.waitFor(await stores.eventStore.headPosition());
    await engine.stop();
    engine = undefined;
    await stores.reopen();
  }
  const increment = (stream: string, by: number) =>
    createCommandHandler(stores.eventStore).handle(
      stream,
      counter,
      { type: 'Increment', by },
      {
        actor: 'u',
        now: 1,
      },
    );

  it('drops the old documents and checkpoint and replays the whole log, once', async () => {
    await increment('counter-1', 2);
    await increment('counter-2', 3);
    await run(versioned(undefined, []));
    await stores.readStore
      .collection('counters')
      .insertOne({ _id: 'left-by-v1', total: 0, events: 0 });
    await stores.readStore.flush();

    const replayed: string[] = [];
    await run(versioned(2, replayed));
    expect(replayed).to.have.length(2);
    const docs = await stores.readStore.collection('counters').find({}, { sort: { _id: 1 } });
    expect(docs.map((d) => [d._id, d.total])).to.deep.equal([
      ['counter-1', 2],
      ['counter-2', 3],
    ]);
    const checkpoints = await stores.readStore.checkpoints();
    expect([...checkpoints.keys()]).to.deep.equal(['counters@2']);

    const again: string[] = [];
    await run(versioned(2, again)); // the same version again: nothing is replayed
    expect(again).to.deep.equal([]);
  });

  it('keeps the checkpoint id of a version-1 projector as it always was: its name', async () => {
    await increment('counter-1', 1);
    await run(versioned(1, []));
    expect([...(await stores.readStore.checkpoints()).keys()]).to.deep.equal(['counters']);
    const replayed: string[] = [];
    await run(versioned(undefined, replayed));
    expect(replayed).to.deep.equal([]);
  });

  // README: "A process that finds a read model built by another version drops it and replays
  // the log into it on start (logged)": the operator sees it begin and end
  it('logs the rebuild when it has caught up: projector id and version, events, duration', async () => {
    await increment('counter-1', 2);
    await increment('counter-2', 3);
    await increment('counter-1', 4);
    await run(versioned(undefined, []));
    const log = logLines();
    await run(versioned(2, []), log);
    const end = await log.find((line) => String(line.msg).includes('rebuilt'));
    expect(end, JSON.stringify(log.lines)).to.deep.include({
      projector: 'counters@2',
      events: 3,
      head: 3,
    });
    expect(end?.durationMs).to.be.a('number');
    expect(end?.msg).to.match(
      /^projector counters@2: rebuilt, replayed 3 events up to position 3 in \d+ ms$/,
    );
  });

  it('logs that the rebuild stopped before it caught up when the engine stops first', async () => {
    await increment('counter-1', 2);
    await increment('counter-2', 3);
    await run(versioned(undefined, []));
    const log = logLines();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const projector = versioned(2, []);
    const apply = projector.apply;
    projector.apply = async (event, store) => {
      await gate; // the replay is slow: the stop comes first
      return apply(event, store);
    };
    const stopping = createProjectionEngine({
      eventStore: stores.eventStore,
      readStore: stores.readStore,
      projectors: [projector],
      logger: log.logger,
    });
    await stopping.start();
    const stopped = stopping.stop();
    release();
    await stopped;
    const line = await log.find((l) => String(l.msg).includes('rebuild stopped'));
    expect(line, JSON.stringify(log.lines)).to.deep.include({ projector: 'counters@2', head: 2 });
    expect(log.lines.filter((l) => String(l.msg).includes('rebuilt,'))).to.deep.equal([]);
  });
});
