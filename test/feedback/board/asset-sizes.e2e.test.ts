/**
 * The sizes the README gives for the board's scripts are those of the files the service serves
 * (README, The public board: "a small script (`/_board/board.js`, 7.5 kB, 2.5 kB gzipped)" and
 * the widget's "8.4 kB, 3.6 kB gzipped"). An audit found board.js grown past its stated size;
 * this keeps the figures from going stale again.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { type BoardWorld, startBoardWorld } from './support.js';

/** Bytes as the README writes them: kilobytes of 1,000 bytes, one decimal. */
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The two figures the README gives after `anchor`, whatever line breaks fall between them. */
function statedSizes(readme: string, anchor: RegExp): { plain: string; gzipped: string } {
  const start = readme.search(anchor);
  expect(start, `the README mentions ${anchor}`).to.be.greaterThan(-1);
  const match = /(\d+\.\d kB),\s+(\d+\.\d kB)\s+gzipped/.exec(readme.slice(start));
  expect(match, `sizes after ${anchor} in the README`).to.not.equal(null);
  return { plain: match![1]!, gzipped: match![2]! };
}

describe("The README's sizes of the board's scripts (e2e)", () => {
  let world: BoardWorld;
  const readme = readFileSync('README.md', 'utf8');

  before(async () => {
    world = await startBoardWorld();
  });
  after(() => world.fb.stop());

  for (const [path, anchor] of [
    ['/_board/board.js', /a small script\s+\(`\/_board\/board\.js`/],
    ['/widget.js', /Plain JavaScript without dependencies:/],
  ] as const) {
    it(`states the served size of ${path}, plain and gzipped`, async () => {
      const res = await fetch(new URL(path, world.fb.url));
      expect(res.status).to.equal(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(statedSizes(readme, anchor)).to.deep.equal({
        plain: kB(body.length),
        gzipped: kB(gzipSync(body).length),
      });
    });
  }
});
