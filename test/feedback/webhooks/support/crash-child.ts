/**
 * The feedback service as its own process, for the kill -9 test: the real runtime (embedded
 * stores in DATA_DIR, projections, HTTP, the webhook worker) on FEEDBACK_PORT. With SEED=1 it
 * first creates a maker, workspace `acme-co`, product APP and a personal token. It prints one
 * JSON line with its URL (and the token) once it serves.
 */
import * as actions from '../../../../src/feedback/actions/index.js';
import { createFeedbackService } from '../../../../src/feedback/service.js';
import { loadConfig } from '../../../../src/config/load.js';
import { silentLogger } from '../../../../src/platform/logger.js';
import { startRuntime } from '../../../../src/platform/runtime.js';

const config = loadConfig(process.env);
const runtime = await startRuntime({
  config,
  role: 'all',
  services: [createFeedbackService()],
  logger: silentLogger,
});
const out: Record<string, string> = { url: runtime.urls.get('feedback')! };
if (process.env.SEED === '1') {
  const deps = {
    commandHandler: runtime.context.commandHandler,
    readStore: runtime.stores.readStore,
  };
  const context = () => ({ actor: 'crash-test', now: Date.now() });
  const { userId, position: p1 } = await actions.createUser(deps, context(), {
    email: 'owner@acme.io',
    displayName: 'Owner',
  });
  await runtime.context.waitFor(p1!);
  const { workspaceId, position: p2 } = await actions.createWorkspace(deps, context(), {
    slug: 'acme-co',
    name: 'Acme',
    ownerId: userId,
  });
  await runtime.context.waitFor(p2!);
  const { position: p3 } = await actions.createProduct(deps, context(), {
    workspaceId,
    key: 'APP',
    name: 'App',
    visibility: 'public',
  });
  await runtime.context.waitFor(p3!);
  const token = await actions.createToken(deps, context(), { ownerId: userId, name: 'laptop' });
  await runtime.context.waitFor(token.position!);
  out.token = token.token;
}
console.log(JSON.stringify(out));
