// Stateless API process (KurrentDB + MongoDB deployments): the HTTP services, no projectors.
import './hold-notices.js';
import { boot } from './boot.js';

const runtime = await boot('api');
for (const [name, url] of runtime?.urls ?? []) console.log(`${name}: ${url}`);
