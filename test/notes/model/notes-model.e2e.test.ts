/**
 * Model-based test of the notes API over real HTTP: random sequences of writes and reads by the
 * devices of one account, each answer compared with an in-memory model of the spec and README
 * (model.ts; the commands drawn: property.ts).
 *
 * MODEL_RUNS (default 12) and MODEL_COMMANDS (most commands per run, default 40) run it longer;
 * MODEL_LOG=1 prints every sequence run; MODEL_NO_SHRINK=1 reports a failure unshrunk. A failure
 * prints the shrunk sequence and ends with the line that replays it, for example
 *
 *   MODEL_COMMANDS=40 MODEL_SEED=443184123 MODEL_PATH=2:4 MODEL_REPLAY_PATH=BAAFC:V \
 *     node scripts/test.mjs test/notes/model/notes-model.e2e.test.ts
 *
 * all of it needed: MODEL_REPLAY_PATH is fast-check's replayPath, which commands need besides the
 * seed and path, and MODEL_COMMANDS changes the sequences a seed draws. MODEL_FAIL_AFTER=N fails
 * every run at its N-th command on purpose, to see a failure and its replay
 * (test/support/model-runs.ts; replay.e2e.test.ts checks that a replay runs the same sequence).
 *
 * MODEL_TARGET=split runs it against the production shape instead (README "Running on KurrentDB +
 * MongoDB"; needs EVENTSTORE_URL and MONGODB_URL, ../shared/engines/up.sh): two `start:api`
 * processes and a `start:projector`, each request sent to either API process as drawn from the
 * run's seed (so a replay sends it to the same one), a write answered by one read back through
 * the other (split.ts). The model uses no in-process hook: every command runs there, and only
 * search may take a few tries (5 s at most) to find a change by its words, as README says an API
 * process's lexical index does there.
 */
import { checkModel, modelSettings } from '../../support/model-runs.js';
import { NOTES_MODEL, notesModelProperty } from './property.js';
import { type NotesTarget, SPLIT, startNotesTarget } from './split.js';

const settings = modelSettings(NOTES_MODEL);

describe('When the devices of one account use the notes API in random order', function () {
  this.timeout(Math.max(60_000, settings.runs * settings.commands * 500));
  let e: NotesTarget;

  before(async function () {
    // split: the projector first replays the engines' whole log into a fresh database, which
    // test/support/split-deployment.ts waits up to 300 s for; a stand-in KurrentDB that has held
    // test:engines' first half ran out the 75 s the runs get (5 × 30 commands)
    if (SPLIT) this.timeout(360_000);
    e = await startNotesTarget({ NOTES_REGISTRATIONS_PER_IP: '100000' });
  });
  after(async () => e?.stop());

  it('every answer agrees with the model of the spec and README', async () => {
    await checkModel(notesModelProperty(e, settings), settings, import.meta.url);
  });
});
