// Webhook worker (KurrentDB + MongoDB deployments): outbound webhook delivery alone, no
// projections, no HTTP besides the operations listener when OPS_PORT is set (/healthz, /readyz,
// /metrics). Run two for failover: one delivers, the other stands by (a lease in the store).
import './hold-notices.js';
import { boot } from './boot.js';

const runtime = await boot('webhooks');
for (const [name, url] of runtime?.urls ?? []) console.log(`${name}: ${url}`);
