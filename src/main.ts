// `npm start`: the embedded default — both services, projections and workers in one process.
import { boot } from './processes/boot.js';

await boot('all', (runtime) => {
  for (const [name, url] of runtime.urls) console.log(`${name}: ${url}`);
});
