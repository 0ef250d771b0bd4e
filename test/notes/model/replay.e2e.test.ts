/**
 * README: "a failure prints the shrunk sequence and ends with the line that replays it" — the
 * seed, fast-check's path and its replayPath, without which a shrunk sequence of commands does
 * not replay ("Unable to replay, got wrong path"). A notes model run is made to fail at its
 * third command (MODEL_FAIL_AFTER), cheaply: a fixed seed, at most 8 commands a run
 * (the first run fails; shrinking it takes most of this test's time).
 */
import { checkModel, modelSettings } from '../../support/model-runs.js';
import { expectReplayed } from '../../support/model-replay.js';
import { NOTES_MODEL, notesModelProperty } from './property.js';
import { type NotesTarget, startNotesTarget } from './split.js';

const FAILING = { MODEL_SEED: '7', MODEL_RUNS: '20', MODEL_COMMANDS: '8', MODEL_FAIL_AFTER: '3' };

describe('When a run of the notes model fails', function () {
  this.timeout(120_000);
  let e: NotesTarget;
  before(async () => {
    e = await startNotesTarget({ NOTES_REGISTRATIONS_PER_IP: '100000' });
  });
  after(async () => e?.stop());

  it('then the replay line its report ends with runs the same failing commands again', async () => {
    await expectReplayed((env) => {
      const settings = modelSettings(NOTES_MODEL, env);
      return checkModel(notesModelProperty(e, settings), settings, import.meta.url);
    }, FAILING);
  });
});
