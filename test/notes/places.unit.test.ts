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
  });

  describe('When coordinates are far from any city', () => {
    it('gives no place name', async () => {
      expect(await places.placeName(-60, -140)).to.equal(null);
    });
  });
});
