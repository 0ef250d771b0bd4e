/** Every aggregate's upcasters: the one registry of event schema versions (shared/versions.ts). */
import { itemUpcasters } from './item/upcasters.js';
import { type EventVersions, eventVersions } from './shared/versions.js';

export function domainEventVersions(): EventVersions {
  return eventVersions([...itemUpcasters]);
}
