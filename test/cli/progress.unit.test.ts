/**
 * export's "progress line on a terminal" (issue 15): redrawn in place, throttled, finished with
 * a newline; main.ts only installs it when stderr is a terminal, so pipes get the answer alone.
 */
import { expect } from 'chai';
import { terminalProgress } from '../../src/cli/progress.js';

describe('When a long command reports progress on a terminal', () => {
  it('redraws one line in place at most every 200 ms and ends it with a newline', () => {
    const written: string[] = [];
    let clock = 0;
    const progress = terminalProgress(
      { write: (t: string) => written.push(t), columns: 40 },
      () => clock,
    );
    progress('exporting: 10 events');
    clock = 50;
    progress('exporting: 20 events'); // too soon: skipped
    clock = 300;
    progress(`exporting: 30 events ${'x'.repeat(100)}`);
    progress('exported 40 events\n'); // the last line is always drawn
    expect(written[0]).to.equal('\r\u001b[2Kexporting: 10 events');
    expect(written).to.have.length(3);
    expect(written[1]!.length).to.equal('\r\u001b[2K'.length + 39);
    expect(written[2]).to.equal('\r\u001b[2Kexported 40 events\n');
  });
});
