#!/usr/bin/env node
// Runs groups of test files one after the other with scripts/test.mjs, each printing its own
// "N passed, N failed", and runs every group even when one fails: chained with `&&`, a failure
// in the first group hid whether the second passed. Ends with the groups' total in the line CI
// reads, and exits non-zero if any group failed.
//
//   node scripts/test-groups.mjs <files…> --then [KEY=value…] <files…> [--then …]
//
// A group's leading KEY=value words are environment variables for that group only.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const testScript = fileURLToPath(new URL('./test.mjs', import.meta.url));
const SUMMARY = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;

/** `a b --then K=v c` -> [{ env: {}, args: [a, b] }, { env: { K: 'v' }, args: [c] }] */
function groupsOf(argv) {
  const groups = [];
  let words = [];
  for (const word of [...argv, '--then']) {
    if (word !== '--then') {
      words.push(word);
      continue;
    }
    const env = {};
    while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
      const [key, ...value] = words.shift().split('=');
      env[key] = value.join('=');
    }
    if (words.length === 0) throw new Error('a group without test files');
    groups.push({ env, args: words });
    words = [];
  }
  return groups;
}

/** Runs one group, passing its output through; resolves to its exit code and summary. */
function run({ env, args }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [testScript, ...args], {
      stdio: ['inherit', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let tail = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk).slice(-4096);
    });
    child.on('exit', (code, signal) => {
      const last = tail.trimEnd().split('\n').at(-1) ?? '';
      const counts = SUMMARY.exec(last)
        ?.slice(1)
        .map((n) => Number(n ?? 0));
      resolve({ code: code ?? (signal ? 1 : 0), counts: counts ?? [0, 1, 0] });
    });
  });
}

const results = [];
for (const group of groupsOf(process.argv.slice(2))) results.push(await run(group));
const [passed, failed, skipped] = [0, 1, 2].map((i) =>
  results.reduce((sum, { counts }) => sum + counts[i], 0),
);
const failedGroups = results.filter(({ code }) => code !== 0).length;
console.log(`\n${results.length} groups, ${failedGroups} failed; in all:`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedGroups ? 1 : 0);
