/**
 * The notes service the model drives: in-process on the embedded stores (startNotesE2e), or with
 * MODEL_TARGET=split a split deployment over the engines (test/support/split-deployment.ts), each
 * request of a device sent to the API process its run's Route draws from fast-check's seed.
 * Sign-ins go through API process A, whose address every process has as its public base URL
 * (the tokens' issuer and audience).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Route } from '../../support/route.js';
import { startSplitDeployment } from '../../support/split-deployment.js';
import { type Api, client, type NotesE2e, signInWith, startNotesE2e } from '../e2e/support.js';

/** MODEL_TARGET=split: two API processes and a projector over the engines */
export const SPLIT = process.env.MODEL_TARGET === 'split';

export type NotesTarget = Pick<NotesE2e, 'signIn' | 'stop'> & {
  /** a device's client; in split mode each request goes where `route` says */
  api(token: string, route: Route): Api;
  /** in the e-mails of this start: a KurrentDB keeps the accounts of earlier runs */
  tag: string;
};

export async function startNotesTarget(env: Record<string, string>): Promise<NotesTarget> {
  if (!SPLIT) {
    const e = await startNotesE2e(env);
    return { signIn: e.signIn, stop: e.stop, api: (token) => e.api(token), tag: '' };
  }
  const split = await startSplitDeployment({ env });
  const clients = (token: string) => split.notes.map((base) => client(base, token));
  return {
    signIn: signInWith(split.notes[0]!, path.join(split.env.DATA_DIR!, 'dev-mailbox.jsonl')),
    api: (token, route) => {
      const each = clients(token);
      return (...args) => route.pick(each)(...args);
    },
    stop: () => split.stop(),
    tag: randomUUID().slice(0, 6),
  };
}
