/**
 * Stream ids of the notes service's aggregates are `<prefix><userId>.<id>`: every stream is
 * scoped to its owner, so loading `<prefix><me>.<id>` can never reach another user's data.
 * Ids are generated without dots (UUIDs), so the last dot separates user id and id; ids from
 * clients are checked with `isEntityId` before they become part of a stream id.
 */

const entityId = /^[A-Za-z0-9_-]{1,64}$/;

export function isEntityId(id: string): boolean {
  return entityId.test(id);
}

export function splitUserScopedStream(
  prefix: string,
  streamId: string,
): { userId: string; id: string } | null {
  if (!streamId.startsWith(prefix)) return null;
  const rest = streamId.slice(prefix.length);
  const dot = rest.lastIndexOf('.');
  if (dot <= 0 || dot === rest.length - 1) return null;
  return { userId: rest.slice(0, dot), id: rest.slice(dot + 1) };
}
