/**
 * The first-run notice of a process over MongoDB (MONGODB_URL; EVENTSTORE_URL too when set): an
 * API process of a split deployment printed `npm run dev -- --demo`, one more server that would
 * project beside the projector process, and left out that the CLI must be given the same stores.
 * It must name them instead (src/feedback/first-run.ts).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { createFeedbackService } from '../../src/feedback/service.js';
import { type Logger, silentLogger } from '../../src/platform/logger.js';
import { startRuntime } from '../../src/platform/runtime.js';
import { tempDir } from '../support/stores.js';

const mongoUrl = process.env.MONGODB_URL;
const eventStoreUrl = process.env.EVENTSTORE_URL;

(mongoUrl ? describe : describe.skip)('First run of an API process on MongoDB (int)', function () {
  this.timeout(120_000);
  const dir = tempDir('first-run-mongo-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names the stores the CLI must use, and offers no demo server', async () => {
    const lines: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      info: (message: string) => void lines.push(message),
      child: () => logger,
    };
    const config = loadConfig({
      DATA_DIR: dir,
      ...(eventStoreUrl ? { EVENTSTORE_URL: eventStoreUrl } : {}),
      MONGODB_URL: mongoUrl!,
      // a database of its own: no maker account there yet
      MONGODB_DATABASE: `firstrun_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
      FEEDBACK_PORT: '0',
      LOG_LEVEL: 'info',
      DEV_MODE: 'true',
      APP_SECRET: 'a-test-secret-for-the-first-run-test-0123456789',
    });
    const runtime = await startRuntime({
      config,
      role: 'api',
      services: [createFeedbackService()],
      logger,
    });
    await runtime.stop();
    const text = lines.join('\n');
    expect(text).to.include('npm run cli -- create-user --email you@example.com');
    expect(text).to.include('EVENTSTORE_URL, MONGODB_URL, MONGODB_DATABASE and APP_SECRET');
    expect(text).not.to.include('npm run dev -- --demo');
  });
});

if (!mongoUrl) {
  describe('First run of an API process on MongoDB', () => {
    it('MONGODB_URL not set: skipped', function () {
      console.log('      MONGODB_URL not set: first run on MongoDB skipped');
      this.skip();
    });
  });
}
