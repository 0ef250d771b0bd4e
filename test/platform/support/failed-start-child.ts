/**
 * A process whose runtime start fails and that does nothing else: it prints the start's error as
 * one JSON line and returns. Node ends it once nothing the failed start opened is left (a port,
 * a timer, the embedder's thread); anything left keeps it alive.
 */
import { loadConfig } from '../../../src/config/load.js';
import { silentLogger } from '../../../src/platform/logger.js';
import type { Role } from '../../../src/platform/runtime.js';
import { startRuntime } from '../../../src/platform/runtime.js';
import { serviceModules } from '../../../src/services.js';

const config = loadConfig(process.env);
const role = (process.env.ROLE ?? 'projector') as Role;
try {
  await startRuntime({ config, role, services: serviceModules(), logger: silentLogger });
  console.log(JSON.stringify({ started: true }));
} catch (error) {
  console.log(JSON.stringify({ error: (error as Error).message }));
}
