/**
 * README, Running on KurrentDB + MongoDB: "`start:api`, `start:projector` and `start:webhooks`
 * refuse to start without `MONGODB_URL` (or without `APP_SECRET`) … for the embedded default run `npm start`". The
 * embedded read store lives in one process's memory: an API process on it would answer every
 * write 503 (no projector of its own), a webhook worker would retry its events forever.
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { tempDir } from '../support/stores.js';
import { refusal, runToExit } from './support.js';

describe('Starting one role of a split deployment (e2e)', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = tempDir('split-roles-');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const role of ['api', 'projector', 'webhooks']) {
    describe(`When start:${role} runs without MONGODB_URL`, () => {
      it('refuses with one line naming MONGODB_URL and pointing to npm start', async () => {
        const exit = await runToExit(
          { DATA_DIR: dir, MONGODB_URL: '', FEEDBACK_PORT: '47412', NOTES_PORT: '47413' },
          { script: `src/processes/${role}.ts` },
        );
        expect(refusal(exit)).to.equal(
          `cannot start: MONGODB_URL is not set: start:${role} runs beside the other roles and shares the read models with them through MongoDB; set MONGODB_URL, or run \`npm start\` for the embedded default (every role in one process)`,
        );
      });
    });

    describe(`When start:${role} runs without APP_SECRET`, () => {
      it('refuses with one line naming APP_SECRET', async () => {
        // README: "Set APP_SECRET … when several API processes share the stores": without it
        // each process generates its own, and cursors and sealed webhook secrets do not carry
        const exit = await runToExit(
          {
            DATA_DIR: dir,
            MONGODB_URL: 'mongodb://127.0.0.1:1/?replicaSet=rs0',
            APP_SECRET: '',
            FEEDBACK_PORT: '47414',
            NOTES_PORT: '47415',
          },
          { script: `src/processes/${role}.ts` },
        );
        expect(refusal(exit)).to.equal(
          `cannot start: APP_SECRET is not set: start:${role} shares signed cursors and sealed webhook secrets with the other processes, so every one needs the same APP_SECRET (32+ random characters)`,
        );
      });
    });
  }
});
