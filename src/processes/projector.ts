// Projector worker (KurrentDB + MongoDB deployments): projections and background workers; no
// HTTP besides the operations listener when OPS_PORT is set (/healthz, /readyz, /metrics).
import './hold-notices.js';
import { boot } from './boot.js';

const runtime = await boot('projector');
for (const [name, url] of runtime?.urls ?? []) console.log(`${name}: ${url}`);
