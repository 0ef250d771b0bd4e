#!/usr/bin/env node
// Runs the whole suite with mocha and ends the output with the line CI reads:
// "N passed, N failed" (", N skipped" when some were skipped). Extra arguments go to mocha.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'mocha-report-'));
const jsonFile = join(dir, 'report.json');
const args = [
  'mocha',
  '--reporter',
  './test/support/reporter.cjs',
  ...(process.argv.slice(2).some((a) => !a.startsWith('-')) ? [] : ['test/**/*.test.ts']),
  ...process.argv.slice(2),
];
// mocha's spec reporter prints to the terminal; a JSON copy of the stats is written beside it.
const child = spawn('npx', args, {
  stdio: 'inherit',
  env: { ...process.env, MOCHA_STATS_FILE: jsonFile, NODE_ENV: 'test' },
});
child.on('exit', (code, signal) => {
  let line = 'summary unavailable';
  try {
    const stats = JSON.parse(readFileSync(jsonFile, 'utf8'));
    line = `${stats.passes} passed, ${stats.failures} failed`;
    if (stats.pending) line += `, ${stats.pending} skipped`;
  } catch {
    line = `0 passed, 1 failed`;
    console.error(`mocha ended (code ${code}, signal ${signal}) without writing its statistics`);
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`\n${line}`);
  process.exit(code ?? 1);
});
