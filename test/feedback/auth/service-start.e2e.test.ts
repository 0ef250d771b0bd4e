/**
 * What happens when the service starts. First run — issue 3 item 9: "`npm start` on an empty data directory prints the exact commands to create a
 * first workspace and token". The same runtime `npm start` boots, over an empty DATA_DIR.
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { createCommandHandler } from '../../../src/write/command-handler.js';
import { loadConfig } from '../../../src/config/load.js';
import type { EventStore } from '../../../src/eventstore/types.js';
import * as actions from '../../../src/feedback/actions/index.js';
import { firstRunInstructions } from '../../../src/feedback/first-run.js';
import { createFeedbackService } from '../../../src/feedback/service.js';
import type { Logger } from '../../../src/platform/logger.js';
import { startRuntime } from '../../../src/platform/runtime.js';
import { tempDir } from '../../support/stores.js';
import { startFeedback } from '../support/harness.js';

function capturingLogger(lines: string[]): Logger {
  const keep = (message: string) => lines.push(message);
  const logger: Logger = { debug: keep, info: keep, warn: keep, error: keep, child: () => logger };
  return logger;
}

describe('First run of the feedback service (e2e)', () => {
  const dir = tempDir('fb-first-run-');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const config = loadConfig({
    DATA_DIR: dir,
    FEEDBACK_PORT: '0',
    LOG_LEVEL: 'error',
    DEV_MODE: 'true',
  });
  const boot = (lines: string[]) =>
    startRuntime({
      config,
      role: 'all',
      services: [createFeedbackService()],
      logger: capturingLogger(lines),
    });

  it('prints the commands for a first user, workspace, product and token on an empty data directory', async () => {
    const lines: string[] = [];
    const runtime = await boot(lines);
    try {
      const text = lines.join('\n');
      const url = runtime.urls.get('feedback');
      for (const command of [
        'npm run cli -- create-user --email you@example.com',
        'npm run cli -- create-workspace --slug acme-co --name "Acme" --owner you@example.com',
        'npm run cli -- create-product --workspace acme-co --key APP --name "App" --visibility public',
        'npm run cli -- create-token --email you@example.com --name laptop',
        `${url}/docs`,
      ]) {
        expect(text).to.include(command);
      }
      const { position } = await actions.createUser(
        { commandHandler: runtime.context.commandHandler, readStore: runtime.stores.readStore },
        { actor: null, now: Date.now() },
        { email: 'you@example.com', displayName: 'You' },
      );
      await runtime.context.waitFor(position as bigint);
    } finally {
      await runtime.stop();
    }
  });

  it('on MongoDB (a split deployment) names the stores the CLI must use and offers no demo server', () => {
    // an API process over shared stores printed `npm run dev -- --demo`: one more server, which
    // would project beside the projector process; and the CLI needs the same stores to be heard
    const text = firstRunInstructions('http://api.example:3000', true);
    expect(text).to.include('npm run cli -- create-user --email you@example.com');
    expect(text).to.include('EVENTSTORE_URL, MONGODB_URL, MONGODB_DATABASE and APP_SECRET');
    expect(text).not.to.include('--demo');
    expect(firstRunInstructions('http://127.0.0.1:3000')).to.include('npm run dev -- --demo');
  });

  it('stays quiet once a maker account exists', async () => {
    const lines: string[] = [];
    const runtime = await boot(lines);
    await runtime.stop();
    expect(lines.join('\n')).not.to.include('npm run cli --');
  });
});

describe('Merge recovery at start (e2e)', () => {
  it('completes a merge a crash left half-done when the service starts again', async () => {
    // DESIGN.md: "Operations that touch several aggregates (merge, notify) must converge after a
    // crash ... Never a half-applied merge."
    const fb = await startFeedback();
    try {
      const owner = await fb.createMaker('max@acme.io');
      const ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
      await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
      const survivor = await fb.submit(ws, 'APP', { body: 'Dark mode', email: 'ann@c.io' });
      const merged = await fb.submit(ws, 'APP', { body: 'Night theme', email: 'bob@c.io' });

      const store = fb.runtime.runtime.stores.eventStore;
      const survivorStream = `item-${ws.workspaceId}.${survivor.itemKey}`;
      const crashing: EventStore = Object.create(store);
      crashing.appendToStream = async (id, batch, options) => {
        if (id === survivorStream) throw new Error('simulated crash before recording the merge');
        return store.appendToStream(id, batch, options);
      };
      const crashed = await actions
        .mergeItems(
          { commandHandler: createCommandHandler(crashing), eventStore: store },
          fb.context({ actor: owner.userId }),
          {
            workspaceId: ws.workspaceId,
            productKey: 'APP',
            survivorKey: survivor.itemKey,
            mergedKeys: [merged.itemKey],
          },
        )
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(crashed).to.be.instanceOf(Error);
      await fb.caughtUp();

      const path = `/v1/workspaces/acme-co/products/APP/items/${survivor.itemKey}`;
      const people = async () =>
        ((await fb.api(owner.token).get(path)).body.participants as { personId: string }[]).map(
          (p) => p.personId,
        );
      expect(await people()).not.to.include(merged.personId);

      await fb.restart();
      const deadline = Date.now() + 5000;
      while (!(await people()).includes(merged.personId) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await people()).to.include(merged.personId);
    } finally {
      await fb.stop();
    }
  });
});
