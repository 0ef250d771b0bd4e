/**
 * README: "a failure prints the shrunk sequence and ends with the line that replays it" — the
 * seed, fast-check's path and its replayPath, without which a shrunk sequence of commands does
 * not replay ("Unable to replay, got wrong path"). A board model run is made to fail at its
 * third command (MODEL_FAIL_AFTER), cheaply: a fixed seed, at most 8 commands a run
 * (the seventh run fails; shrinking it takes most of this test's time).
 */
import { checkModel, modelSettings } from '../../support/model-runs.js';
import { expectReplayed } from '../../support/model-replay.js';
import { BOARD_MODEL, boardModelProperty } from './property.js';
import { type Service, startService, stopService } from './world.js';

const FAILING = { MODEL_SEED: '7', MODEL_RUNS: '20', MODEL_COMMANDS: '8', MODEL_FAIL_AFTER: '3' };

describe('When a run of the feedback board model fails', function () {
  this.timeout(120_000);
  let service: Service;
  before(async () => {
    service = await startService();
  });
  after(() => stopService(service));

  it('then the replay line its report ends with runs the same failing commands again', async () => {
    await expectReplayed((env) => {
      const settings = modelSettings(BOARD_MODEL, env);
      return checkModel(boardModelProperty(service, settings), settings, import.meta.url);
    }, FAILING);
  });
});
