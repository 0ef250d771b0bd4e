/**
 * Action dependencies that file people (registerPerson, submitFeedback, captureFeedback) carry
 * the deployment's person ids (src/feedback/actions/person-ids.ts). A test that also reads over
 * HTTP must pass the running service's secret, so both derive the same ids.
 */
import {
  createPersonIds,
  PERSON_ID_PURPOSE,
  type PersonIds,
} from '../../src/feedback/actions/index.js';
import { idKeyFor } from '../../src/platform/id-keys.js';
import type { ReadStore } from '../../src/readstore/types.js';
import type { CommandHandler } from '../../src/write/command-handler.js';

export const TEST_SECRET = 'a test secret of enough length';

export function withPersonIds<D extends { commandHandler: CommandHandler; readStore: ReadStore }>(
  deps: D,
  secret = TEST_SECRET,
): D & { personIds: PersonIds } {
  const personIdKey = idKeyFor(secret, PERSON_ID_PURPOSE);
  return { ...deps, personIds: createPersonIds({ ...deps, personIdKey }) };
}
