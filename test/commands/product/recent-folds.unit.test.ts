/**
 * The same-body fold's memory (commands/product/recent-folds.ts): the first submission under
 * each key within FOLD_WINDOW_MS, kept in chunks so that adding one does not copy them all.
 */
import { expect } from 'chai';
import {
  FOLD_WINDOW_MS,
  foldedInto,
  type RecentFolds,
  withFold,
} from '../../../commands/product/recent-folds.js';

function filled(count: number, start = 0): RecentFolds {
  let recent: RecentFolds = [];
  for (let i = 0; i < count; i++)
    recent = withFold(recent, `k${i}`, { number: i + 1, at: start + i });
  return recent;
}

describe('The recent folds of a product', () => {
  it('finds every key added within the window, across chunks, and no other', () => {
    const recent = filled(200);
    expect(recent.length, 'chunks of 64').to.equal(4);
    for (const i of [0, 63, 64, 150, 199]) expect(foldedInto(recent, `k${i}`, 500)).to.equal(i + 1);
    expect(foldedInto(recent, 'k200', 500)).to.equal(null);
    expect(foldedInto(recent, '__proto__', 500)).to.equal(null);
  });

  it('forgets a key once the window has passed, and drops the chunks wholly outside it', () => {
    const recent = filled(200);
    expect(foldedInto(recent, 'k0', FOLD_WINDOW_MS - 1)).to.equal(1);
    expect(foldedInto(recent, 'k0', FOLD_WINDOW_MS)).to.equal(null);
    expect(foldedInto(recent, 'k199', FOLD_WINDOW_MS)).to.equal(200);
    const later = withFold(recent, 'late', { number: 201, at: 70 + FOLD_WINDOW_MS });
    // the first chunk (entries 0-63) ended before the window; the others hold entries within it
    expect(later.length).to.equal(3);
    expect(foldedInto(later, 'k130', 70 + FOLD_WINDOW_MS)).to.equal(131);
    expect(foldedInto(later, 'late', 71 + FOLD_WINDOW_MS)).to.equal(201);
  });

  it('leaves the state it was given as it was', () => {
    const recent = filled(10);
    const before = JSON.stringify(recent);
    withFold(recent, 'new', { number: 99, at: 20 });
    expect(JSON.stringify(recent)).to.equal(before);
  });
});
