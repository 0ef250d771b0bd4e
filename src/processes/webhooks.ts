// Webhook worker (KurrentDB + MongoDB deployments): outbound webhook delivery alone, no HTTP, no
// projections. Run two for failover: one delivers, the other stands by (a lease in the store).
import { boot } from './boot.js';

await boot('webhooks');
