/**
 * What the two model-based tests (test/feedback/model, test/notes/model) share to run their
 * commands with fast-check and to replay a failure: the settings read from MODEL_* variables,
 * the commands arbitrary, and a failure report that ends with the command line replaying it.
 *
 * fast-check's seed and path are not enough to replay commands: walking the path, fast-check
 * shrinks without running the property, and `fc.commands` shrinks by dropping the commands that
 * did not run, which it then knows only from the replayPath it prints with the counterexample
 * (without it: "Unable to replay, got wrong path"). So the report names all three — MODEL_SEED,
 * MODEL_PATH, MODEL_REPLAY_PATH — and every setting that shapes the commands drawn.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { Route } from './route.js';

export interface ModelSettings {
  /** MODEL_RUNS */
  runs: number;
  /** MODEL_COMMANDS: the most commands a run draws (fewer or more draws other sequences) */
  commands: number;
  /** MODEL_SEED, MODEL_PATH, MODEL_REPLAY_PATH: a failure to replay */
  seed?: number;
  path?: string;
  replayPath?: string;
  /** MODEL_FAIL_AFTER=N: the N-th command of every run fails on purpose, to try a replay */
  failAfter?: number;
  /** MODEL_NO_SHRINK=1: report the first failure as it is, unshrunk */
  noShrink: boolean;
  /** MODEL_LOG=1: print every sequence run */
  log: boolean;
  /** the variables a replay must set again, as they are now */
  shaping: Record<string, string>;
}

/** Variables besides MODEL_COMMANDS that change the commands drawn from a seed. */
const SHAPING = ['MODEL_TARGET', 'MODEL_FAIL_AFTER'];

/** The settings of a model test; `shapedBy` names its own variables that shape its commands. */
export function modelSettings(
  defaults: { runs: number; commands: number; shapedBy?: string[] },
  env: Record<string, string | undefined> = process.env,
): ModelSettings {
  const commands = Number(env.MODEL_COMMANDS ?? defaults.commands);
  const shaping: Record<string, string> = { MODEL_COMMANDS: String(commands) };
  for (const name of [...SHAPING, ...(defaults.shapedBy ?? [])]) {
    if (env[name] !== undefined) shaping[name] = env[name];
  }
  return {
    runs: Number(env.MODEL_RUNS ?? defaults.runs),
    commands,
    ...(env.MODEL_SEED ? { seed: Number(env.MODEL_SEED) } : {}),
    ...(env.MODEL_PATH ? { path: env.MODEL_PATH } : {}),
    ...(env.MODEL_REPLAY_PATH ? { replayPath: env.MODEL_REPLAY_PATH } : {}),
    ...(env.MODEL_FAIL_AFTER ? { failAfter: Number(env.MODEL_FAIL_AFTER) } : {}),
    noShrink: Boolean(env.MODEL_NO_SHRINK),
    log: Boolean(env.MODEL_LOG),
    shaping,
  };
}

/** The real side of a model run: it sends each request where its Route says (split mode). */
export interface Routed {
  route: Route;
}

/** The routing seed of a run's set-up; each command draws its own (see Step). */
export const routeSeed = fc.noShrink(fc.nat());

/**
 * Sequences of the model's commands, each command with its own routing seed, replayable with
 * the settings' replayPath.
 */
export function modelCommands<M extends object, R extends Routed>(
  arbs: fc.Arbitrary<fc.AsyncCommand<M, R>>[],
  settings: ModelSettings,
): fc.Arbitrary<Iterable<fc.AsyncCommand<M, R>>> {
  const steps = arbs.map((arb) =>
    fc.tuple(arb, routeSeed).map(([command, seed]) => new Step(command, seed, settings.failAfter)),
  );
  return fc.commands(steps, {
    maxCommands: settings.commands,
    size: 'max',
    ...(settings.replayPath ? { replayPath: settings.replayPath } : {}),
  });
}

/** How many commands of a run (keyed by its model) have run, for MODEL_FAIL_AFTER. */
const ran = new WeakMap<object, number>();

/** A command of the model, routed by its own seed, and the deliberate failure when asked. */
class Step<M extends object, R extends Routed> implements fc.AsyncCommand<M, R> {
  constructor(
    readonly command: fc.AsyncCommand<M, R>,
    readonly seed: number,
    readonly failAfter: number | undefined,
  ) {}
  check = (model: Readonly<M>) => this.command.check(model);
  async run(model: M, real: R) {
    real.route.reseed(this.seed);
    await this.command.run(model, real);
    const count = (ran.get(model) ?? 0) + 1;
    ran.set(model, count);
    if (count === this.failAfter) {
      throw new Error(`MODEL_FAIL_AFTER=${count}: command ${count} of the run fails on purpose`);
    }
  }
  toString = () => this.command.toString();
}

/**
 * Runs the property as the settings say; a failure throws fast-check's report followed by the
 * command line that replays it (`file`: the test's import.meta.url).
 */
export async function checkModel<Ts extends unknown[]>(
  property: fc.IAsyncProperty<Ts>,
  settings: ModelSettings,
  file: string,
): Promise<void> {
  const details = await fc.check(property, {
    numRuns: settings.runs,
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
    // a replay runs the failing sequence once; it was shrunk already
    ...(settings.path ? { path: settings.path, endOnFailure: true } : {}),
    ...(settings.noShrink ? { endOnFailure: true } : {}),
  });
  if (!details.failed) return;
  const replayPath = /\/\*replayPath="([^"]*)"\*\//.exec(String(details.counterexample?.[0]));
  const replay = {
    ...settings.shaping,
    MODEL_SEED: String(details.seed),
    MODEL_PATH: details.counterexamplePath ?? '',
    ...(replayPath ? { MODEL_REPLAY_PATH: replayPath[1]! } : {}),
  };
  const line = [
    ...Object.entries(replay).map(([name, value]) => `${name}=${quoted(value)}`),
    `node scripts/test.mjs ${relative(process.cwd(), fileURLToPath(file))}`,
  ].join(' ');
  const report = fc.defaultReportMessage(details) ?? 'the model run failed';
  throw new Error(`${report}\n\nReplay it with:\n${line}\n`, { cause: details.errorInstance });
}

const quoted = (value: string) =>
  /^[\w:./+=-]*$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
