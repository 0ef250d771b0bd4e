import { expect } from 'chai';
import { createGazetteer } from '../../src/notes/places.js';

describe('Gazetteer', () => {
  // One gazetteer for the file: building the index costs ~0.5 s.
  const places = createGazetteer();

  describe('When coordinates are in a city', () => {
    it('names the nearest city with its country code', async () => {
      // spec: "When latitude and longitude are supplied, the note also gets a place name."
      expect(await places.placeName(48.8566, 2.3522)).to.equal('Paris, FR');
      expect(await places.placeName(35.6762, 139.6503)).to.match(/, JP$/);
      expect(await places.placeName(-33.8688, 151.2093)).to.match(/, AU$/);
    });

    it('names the city, not the district of it the point lies in', async () => {
      // the OpenAPI placeName: "City, CC" of the nearest place; GeoNames lists districts (PPLX)
      // such as Berlin's "Mitte" beside the city
      expect(await places.placeName(52.52, 13.405)).to.equal('Berlin, DE');
      expect(await places.placeName(52.5163, 13.3777)).to.equal('Berlin, DE');
      expect(await places.placeName(41.8781, -87.6298)).to.equal('Chicago, US');
    });
  });

  describe('When coordinates are far from any city', () => {
    it('gives no place name', async () => {
      expect(await places.placeName(-60, -140)).to.equal(null);
    });
  });
});
