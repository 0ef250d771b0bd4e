/**
 * Issue 14: "`rebuild` shows a progress bar on a terminal". On a terminal the CLI passes a
 * progress callback (src/cli/main.ts); rebuild draws the replay's position against the log's
 * head with it and finishes the bar at 100 % before its answer. Without a terminal it draws
 * nothing (covered by import.int.test.ts: a piped run's stderr stays empty).
 */
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { progressBar } from '../../src/cli/progress.js';
import { rebuildCommand } from '../../src/cli/verbs/rebuild.js';
import { removeDir, seedBoard, tempDataDir } from './support.js';

describe('rebuild on a terminal', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = tempDataDir();
    await seedBoard(dir);
  });
  after(() => removeDir(dir));

  it('draws a bar of the replayed position against the head and ends it at 100 %', async () => {
    const lines: string[] = [];
    const out: string[] = [];
    await rebuildCommand.run(new Map([['projector', 'items']]), {
      config: () => loadConfig({ DATA_DIR: dir }),
      out: (line) => out.push(line),
      progress: (line) => lines.push(line),
    });
    expect(out.join('\n')).to.match(/^rebuilt items \(items\) up to position (\d+)/);
    const head = /up to position (\d+)/.exec(out[0]!)![1];
    expect(lines.at(-1)).to.equal(`rebuilding items ${progressBar(1n, 1n)}\n`);
    for (const line of lines.slice(0, -1)) {
      expect(line).to.match(
        new RegExp(`^rebuilding items \\[[#-]{24}\\] +\\d+ % \\(position \\d+ of ${head}\\)$`),
      );
    }
  });
});

describe('progressBar', () => {
  it('fills in proportion, floors the percentage and never overflows', () => {
    expect(progressBar(0n, 200n)).to.equal(`[${'-'.repeat(24)}]   0 %`);
    expect(progressBar(50n, 200n)).to.equal(`[${'#'.repeat(6)}${'-'.repeat(18)}]  25 %`);
    expect(progressBar(199n, 200n)).to.equal(`[${'#'.repeat(24)}]  99 %`);
    expect(progressBar(300n, 200n)).to.equal(`[${'#'.repeat(24)}] 100 %`);
    expect(progressBar(0n, 0n)).to.equal(`[${'#'.repeat(24)}] 100 %`); // an empty log is done
  });
});
