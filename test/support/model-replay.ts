/**
 * The check both model tests' replay.e2e.test.ts make: a run made to fail (MODEL_FAIL_AFTER)
 * reports a line, and running the model again with the variables of that line fails the same
 * way, on the same sequence of commands, at once.
 */
import { expect } from 'chai';

/** The variables the report's replay line sets (its leading NAME=value words). */
export function replayEnv(report: string): Record<string, string> {
  const line = /^(MODEL_\w+=\S+ )+node scripts\/test\.mjs .*$/m.exec(report);
  expect(line, `a replay line in: ${report}`).not.to.equal(null);
  const words = line![0].split(' ').filter((word) => /^MODEL_\w+=/.test(word));
  return Object.fromEntries(words.map((word) => word.split(/=(.*)/s).slice(0, 2)));
}

async function reportOf(run: Promise<void>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the model run was made to fail, and passed');
}

/** fast-check's "Counterexample: [...]" line: the commands that ran and the routing seed. */
const counterexample = (report: string) => /^Counterexample: .*$/m.exec(report)?.[0];

/** Runs `check` with `env`, then with the variables its report says replay the failure. */
export async function expectReplayed(
  check: (env: Record<string, string>) => Promise<void>,
  env: Record<string, string>,
): Promise<void> {
  const first = await reportOf(check(env));
  const replay = replayEnv(first);
  // a shrunk failure: the replay walks fast-check's shrink path, as a real failure's would
  expect(replay.MODEL_PATH, 'MODEL_PATH of a shrunk failure').to.include(':');
  expect(replay.MODEL_REPLAY_PATH, 'MODEL_REPLAY_PATH').to.be.a('string');
  const again = await reportOf(check(replay));
  expect(counterexample(first), first).to.be.a('string');
  expect(counterexample(again), again).to.equal(counterexample(first));
  expect(again, 'the replay runs the failing sequence once').to.include('Shrunk 0 time(s)');
}
