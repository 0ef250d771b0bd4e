/**
 * Tags and devices are named, and a name is unique per user (case and surrounding space ignored)
 * because notes refer to them by name. The read model answers "is this name taken" quickly but
 * may lag a concurrent request, so one created for a name first tries an id derived from
 * (user, name): two concurrent creates of one name meet on the same stream, and the loser finds
 * the winner there. Only when that stream holds another one (renamed or deleted since) does it
 * take a fresh id. A retried create (the same Idempotency-Key) goes back to the stream its first
 * attempt wrote and gets the first result there, not the 409 of a taken name.
 */
import { AlreadyExists } from '../../../commands/shared/errors.js';
import { type CommandContext, derivedId, idFor } from './deps.js';

export interface Named<Result> {
  kind: 'tag' | 'device';
  userId: string;
  name: string;
  /** the key two names collide on */
  keyOf(name: string): string;
  /** the read model's answer to "has the user one of this name" */
  findByName(name: string): Promise<{ id: string; name: string } | null>;
  /** the one stored at `id`: its name while it is live, and the action's answer about it */
  load(id: string): Promise<{ liveName: string | null; answer(): Result }>;
  /** create it at `id`; AlreadyExists when that stream is taken */
  create(id: string): Promise<Result>;
}

/** Create the named one; `reuse` answers with an existing one of that name instead of 409. */
export async function createNamed<Result>(
  context: CommandContext,
  named: Named<Result>,
  reuse: boolean,
): Promise<Result> {
  const { kind, userId } = named;
  const key = named.keyOf(named.name);
  const clash = (name: string) => new AlreadyExists(`a ${kind} named "${name}" already exists`);
  const namedId = derivedId(kind, userId, key);
  const existing = await named.findByName(named.name);
  if (existing) {
    // a retry with the Idempotency-Key of the create that made it: that create's stream replays
    // the first result (the command handler finds the key there); another request's is refused
    const mine = context.idempotencyKey && existing.id === namedId;
    if (mine || existing.id === idFor(context, kind, userId, key)) {
      try {
        return await named.create(existing.id);
      } catch (error) {
        if (!(error instanceof AlreadyExists)) throw error;
      }
    }
    if (!reuse) throw clash(existing.name);
    return (await named.load(existing.id)).answer();
  }
  try {
    return await named.create(namedId);
  } catch (error) {
    if (!(error instanceof AlreadyExists)) throw error;
  }
  const there = await named.load(namedId);
  if (there.liveName !== null && named.keyOf(there.liveName) === key) {
    if (!reuse) throw clash(there.liveName);
    return there.answer();
  }
  return named.create(idFor(context, kind, userId, key));
}
