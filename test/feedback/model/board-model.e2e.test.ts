/**
 * The feedback board against a model of it (model-based, over real HTTP): random sequences of
 * submissions, status changes (every enum value and values outside it), edits, tags, replies,
 * writes sent together to one item, +1 toggles, time passing, Idempotency-Key retries and reuses, an outsider's attempts, and reads
 * — get_item after every write (read-your-writes), list_items with filters and paging,
 * list_products, history folded by an auditor, as-of reads, the event feed, and at the end of
 * each run the webhook receiver's messages. Each run is a fresh workspace of one service.
 *
 * The defaults take about 10 s here (the commands drawn: property.ts). Longer exploration:
 * MODEL_RUNS (runs, default 30), MODEL_COMMANDS (most commands a run, default 40); MODEL_LOG=1
 * prints every sequence run; MODEL_SPREAD=0 sends every item command to the first item, for long
 * histories (as-of snapshots every 64 revisions); MODEL_NO_SHRINK=1 reports a failure unshrunk
 * (one that waits out the webhook check shrinks slowly).
 *
 * A failure prints the shrunk sequence and ends with the line that replays it, for example
 *
 *   MODEL_COMMANDS=40 MODEL_SEED=443184123 MODEL_PATH=2:4 MODEL_REPLAY_PATH=BAAFC:V \
 *     node scripts/test.mjs test/feedback/model/board-model.e2e.test.ts
 *
 * all of it needed: MODEL_REPLAY_PATH is fast-check's replayPath, which commands need besides the
 * seed and path, and MODEL_COMMANDS, MODEL_SPREAD and MODEL_TARGET change the sequences a seed
 * draws. MODEL_FAIL_AFTER=N fails every run at its N-th command on purpose, to see a failure and
 * its replay (test/support/model-runs.ts; replay.e2e.test.ts checks that a replay runs the same
 * sequence).
 *
 * MODEL_TARGET=split runs it against the production shape instead (README "Running on KurrentDB +
 * MongoDB"; needs EVENTSTORE_URL and MONGODB_URL, ../shared/engines/up.sh): two `start:api`
 * processes, a `start:projector` and a `start:webhooks`, each request sent to the API process
 * drawn from the run's seed (so a replay sends it to the same one), a write answered by one read
 * back through the other. Makers, workspaces and products are seeded as the admin CLI does it.
 * TimePasses is left out there: it moves the in-process clock, and the processes keep the
 * machine's time.
 */
import { checkModel, modelSettings } from '../../support/model-runs.js';
import { BOARD_MODEL, boardModelProperty } from './property.js';
import { type Service, startService, stopService } from './world.js';

const settings = modelSettings(BOARD_MODEL);

describe('The feedback board against a model of it (e2e, model-based)', function () {
  this.timeout(Math.max(60_000, settings.runs * settings.commands * 2_000));
  let service: Service;
  before(async () => {
    service = await startService();
  });
  after(() => stopService(service));

  it('When any sequence of writes and reads runs, then every answer agrees with the model', async () => {
    await checkModel(boardModelProperty(service, settings), settings, import.meta.url);
  });
});
