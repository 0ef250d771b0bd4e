// Stateless API process (KurrentDB + MongoDB deployments): the HTTP services, no projectors.
import { boot } from './boot.js';

await boot('api');
