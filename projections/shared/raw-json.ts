/**
 * A response body that is already JSON text. Handlers that answer large lists of immutable
 * documents (the embedded read store hands out frozen documents) can serialize each document
 * once and reuse the text; the registry writes it as is. `toJSON` keeps every other consumer
 * (response validation, the MCP path, JSON.stringify) working on the value itself.
 */
export class RawJson<T = unknown> {
  /** the type of the value the text encodes (compile time only) */
  declare readonly value?: T;

  constructor(readonly json: string) {}

  toJSON(): T {
    return JSON.parse(this.json) as T;
  }
}

/**
 * `JSON.stringify(toValue(doc))`, computed once per document object. Only for frozen documents:
 * a frozen document never changes, so its text never goes stale; anything else is serialized
 * every time (e.g. MongoDB hands out fresh objects).
 */
export function memoizedJson<D extends object>(toValue: (doc: D) => unknown): (doc: D) => string {
  const cache = new WeakMap<D, string>();
  return (doc) => {
    if (!Object.isFrozen(doc)) return JSON.stringify(toValue(doc));
    let json = cache.get(doc);
    if (json === undefined) {
      json = JSON.stringify(toValue(doc));
      cache.set(doc, json);
    }
    return json;
  };
}
