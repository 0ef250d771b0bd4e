/**
 * The split model tests' routing (route.ts): README, model tests in split mode — "each request
 * sent to the API process drawn from the run's seed (a replay sends it to the same one), so a
 * write answered by one is read back through the other".
 */
import { expect } from 'chai';
import { Route } from './route.js';

const PROCESSES = ['A', 'B'];
const draws = (route: Route, n: number) => Array.from({ length: n }, () => route.pick(PROCESSES));

describe('When a model run routes its requests in split mode', () => {
  it('then the same seed sends every request to the same process, as a replay must', () => {
    expect(draws(new Route(42), 64)).to.deep.equal(draws(new Route(42), 64));
  });

  it("then a command's own seed routes it the same whatever the commands before it drew", () => {
    const after = new Route(1);
    draws(after, 5);
    after.reseed(99);
    expect(draws(after, 16)).to.deep.equal(draws(new Route(99), 16));
  });

  it('then both processes get requests, about half each', () => {
    const picked = draws(new Route(7), 1000);
    expect(picked.filter((p) => p === 'A').length).to.be.within(400, 600);
  });
});
