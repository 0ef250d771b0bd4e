/**
 * Who did something, as auditors and webhook subscribers see it. Shared by the item history and
 * audit trail (issue 15) and webhook messages (issue 18): one description of an event's actor.
 * A query over the people read model (and the users one for makers), so it sits with the read
 * models, where the feedback service and the webhook worker below it both import it downward.
 *
 * Rules, in order:
 *  - no actor (`metadata.actor` null): the `system` (a recovery, a migration);
 *  - `via` `api:<client>`: an `agent` — an OAuth client acting for the user — named by the client,
 *    with `actingFor` naming the user (or person) it acted for by the rules below: the spec's
 *    label says through what, and an auditor also needs who ("Claude acting for max");
 *  - `via` `integration:<connection>`: an `agent` named by the workspace integration connection;
 *  - the actor is a person of this workspace (people read model): a `person`, by display name;
 *  - otherwise a `maker` (a user), by the user's display name (users read model).
 */
import type { ReadStore } from '../../src/readstore/types.js';
import type { EventMetadata } from '../../src/eventstore/types.js';
import { peopleOf } from './projector.js';
import { userById } from '../users/queries.js';

export interface ActorView {
  kind: 'maker' | 'person' | 'agent' | 'system';
  /** the actor the log records: for an OAuth client, the user (or person) it acted for */
  id: string | null;
  name: string | null;
  /** an OAuth client's actor only: whom it acted for */
  actingFor?: OnBehalfOf;
}

/** The user or person an OAuth client acted for. */
export interface OnBehalfOf {
  kind: 'maker' | 'person';
  id: string;
  name: string | null;
}

const API = 'api:';
const INTEGRATION = 'integration:';

export async function describeActor(
  readStore: ReadStore,
  workspaceId: string,
  metadata: EventMetadata,
): Promise<ActorView> {
  const { actor, via } = metadata;
  if (actor === null) return { kind: 'system', id: null, name: null };
  if (via?.startsWith(API)) {
    const actingFor = await personOrMaker(readStore, workspaceId, actor);
    return { kind: 'agent', id: actor, name: via.slice(API.length), actingFor };
  }
  // an integration acts for the workspace, not for anyone: its actor is the credential itself
  if (via?.startsWith(INTEGRATION)) {
    return { kind: 'agent', id: actor, name: via.slice(INTEGRATION.length) };
  }
  return personOrMaker(readStore, workspaceId, actor);
}

async function personOrMaker(
  readStore: ReadStore,
  workspaceId: string,
  actor: string,
): Promise<OnBehalfOf> {
  const person = await peopleOf(readStore).findOne({ _id: actor, _ws: workspaceId });
  if (person) return { kind: 'person', id: actor, name: person.displayName };
  const user = await userById(readStore, actor);
  return { kind: 'maker', id: actor, name: user?.displayName ?? null };
}

/** describeActor for many events at once: each (actor, via) is looked up once. */
export function actorDescriber(readStore: ReadStore, workspaceId: string) {
  const seen = new Map<string, Promise<ActorView>>();
  return (metadata: EventMetadata): Promise<ActorView> => {
    const key = `${metadata.actor ?? ''}\0${metadata.via ?? ''}`;
    let view = seen.get(key);
    if (!view) {
      view = describeActor(readStore, workspaceId, metadata);
      seen.set(key, view);
    }
    return view;
  };
}
