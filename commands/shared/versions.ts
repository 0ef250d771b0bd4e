/**
 * Event schema versions. An event's data shape has a version per event type, carried in
 * `metadata.schemaVersion` (absent means 1). When a shape changes, the new shape gets the next
 * version and an upcaster turns the previous one into it. Stored events are never rewritten:
 * every reader (command handlers, projectors, history) sees old events upcast, step by step, to
 * the current shape when they are read.
 *
 * Upcasters are pure: what they add comes from the event itself (its data, metadata, stream).
 */

/** An event as read from the log, before upcasting. */
export interface StoredEvent {
  type: string;
  data: unknown;
  metadata: { schemaVersion?: number };
  streamId: string;
}

export interface Upcaster {
  type: string;
  /** the version this upcaster reads; it returns the data of version `from + 1` */
  from: number;
  upcast(event: StoredEvent): unknown;
}

export interface EventVersions {
  /** the version events of this type are written in now (1 for types never changed) */
  current(type: string): number;
  /** the event in its type's current shape (the same object when it already is) */
  upcast<E extends StoredEvent>(event: E): E;
}

export function eventVersions(upcasters: readonly Upcaster[]): EventVersions {
  const byType = new Map<string, Map<number, Upcaster>>();
  for (const upcaster of upcasters) {
    const steps = byType.get(upcaster.type) ?? new Map<number, Upcaster>();
    if (steps.has(upcaster.from)) {
      throw new Error(`two upcasters for ${upcaster.type} version ${upcaster.from}`);
    }
    steps.set(upcaster.from, upcaster);
    byType.set(upcaster.type, steps);
  }
  const currentOf = new Map<string, number>();
  for (const [type, steps] of byType) {
    let version = 1;
    while (steps.has(version)) version++;
    if (version - 1 !== steps.size) throw new Error(`upcasters of ${type} skip a version`);
    currentOf.set(type, version);
  }
  return {
    current: (type) => currentOf.get(type) ?? 1,
    upcast(event) {
      const steps = byType.get(event.type);
      if (!steps) return event;
      const current = currentOf.get(event.type)!;
      let version = event.metadata.schemaVersion ?? 1;
      if (version >= current) return event;
      let data = event.data;
      for (; version < current; version++) {
        data = steps.get(version)!.upcast({ ...event, data });
      }
      return { ...event, data, metadata: { ...event.metadata, schemaVersion: current } };
    },
  };
}
