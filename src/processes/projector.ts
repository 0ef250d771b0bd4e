// Projector worker (KurrentDB + MongoDB deployments): projections and background workers, no HTTP.
import { boot } from './boot.js';

await boot('projector');
