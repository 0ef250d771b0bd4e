/**
 * Flags of one command: `--name value` or `--name=value`, each at most once. Values are then
 * checked with a zod schema per command, so a bad e-mail, slug or key reads like the API's
 * validation message, prefixed with the flag it came from.
 */
import type { z } from 'zod';
import { UsageError } from './errors.js';

export function parseFlags(
  argv: readonly string[],
  allowed: readonly string[],
): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--') || arg === '--') {
      throw new UsageError(`unexpected argument "${arg}" (flags look like --name value)`);
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (!allowed.includes(name)) {
      const known = allowed.map((f) => `--${f}`).join(', ');
      throw new UsageError(`unknown flag --${name} (this command takes ${known || 'no flags'})`);
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) {
        throw new UsageError(`--${name} needs a value`);
      }
      i++;
    }
    if (flags.has(name)) throw new UsageError(`--${name} is given twice`);
    flags.set(name, value);
  }
  return flags;
}

/**
 * Whether `--help` or `-h` stands where a flag name goes: `--name -h` names someone "-h", it
 * does not ask for help.
 */
export function asksForHelp(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return true;
    if (arg.startsWith('--') && !arg.includes('=')) i++;
  }
  return false;
}

/** Validate the flags against a schema whose keys are the flag names. */
export function checkFlags<S extends z.ZodObject>(
  schema: S,
  flags: Map<string, string>,
): z.infer<S> {
  const parsed = schema.safeParse(Object.fromEntries(flags));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const flag = `--${String(issue.path[0] ?? '?')}`;
  if (issue.code === 'invalid_type' && !flags.has(String(issue.path[0]))) {
    throw new UsageError(`missing ${flag}`);
  }
  throw new UsageError(`invalid ${flag}: ${issue.message}`);
}
