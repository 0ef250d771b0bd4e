/**
 * A least-recently-used map bounded per tenant (a workspace) under a global cap, for what the
 * board keeps in memory for every tenant (its rendered pages, its products by address): one
 * tenant's traffic never pushes another's entries out, which would also let an observer time how
 * busy other boards are. A tenant over its own share drops its least recently used entry; when
 * the whole map is full, the tenant holding the most drops its least recently used one. A tenant
 * left with none is forgotten, so the map does not grow with every tenant ever seen.
 */
export interface TenantLru<V> {
  /** the entry, now the tenant's most recently used; undefined when not held */
  get(tenant: string, key: string): V | undefined;
  set(tenant: string, key: string, value: V): void;
  delete(tenant: string, key: string): void;
  /** how many entries a tenant holds (for tests) */
  sizeOf(tenant: string): number;
  /** how many tenants hold entries (for tests) */
  tenantsHeld(): number;
}

export function createTenantLru<V>(max: number, perTenant: number): TenantLru<V> {
  const tenants = new Map<string, Map<string, V>>();
  let size = 0;
  function remove(tenant: string, entries: Map<string, V>, key: string): void {
    if (!entries.delete(key)) return;
    size--;
    if (entries.size === 0) tenants.delete(tenant);
  }
  const oldest = (entries: Map<string, V>) => entries.keys().next().value as string;
  return {
    get(tenant, key) {
      const entries = tenants.get(tenant);
      if (!entries?.has(key)) return undefined;
      const value = entries.get(key) as V;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(tenant, key, value) {
      let entries = tenants.get(tenant);
      if (!entries) {
        entries = new Map();
        tenants.set(tenant, entries);
      }
      if (entries.delete(key)) size--;
      entries.set(key, value);
      size++;
      if (entries.size > perTenant) remove(tenant, entries, oldest(entries));
      if (size > max) {
        let largest: [string, Map<string, V>] = [tenant, entries];
        for (const other of tenants) if (other[1].size > largest[1].size) largest = other;
        remove(largest[0], largest[1], oldest(largest[1]));
      }
    },
    delete(tenant, key) {
      const entries = tenants.get(tenant);
      if (entries) remove(tenant, entries, key);
    },
    sizeOf: (tenant) => tenants.get(tenant)?.size ?? 0,
    tenantsHeld: () => tenants.size,
  };
}
