import { expect } from 'chai';
describe('When the suite runs', () => {
  it('loads TypeScript through tsx', () => {
    const n: number = 2;
    expect(n + 1).to.equal(3);
  });
});
