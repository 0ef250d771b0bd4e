// The spec reporter, plus a JSON copy of the run's statistics for scripts/test.mjs, which prints
// the closing "N passed, N failed" line after everything else has been written.
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

class SpecWithStats extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.MOCHA_STATS_FILE;
      if (file) writeFileSync(file, JSON.stringify(runner.stats));
    });
  }
}
module.exports = SpecWithStats;
