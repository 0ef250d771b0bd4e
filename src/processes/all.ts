// `npm start`: the embedded default — both services, projections and workers in one process.
// `npm start -- --demo` first seeds a demo workspace and token when the data directory is empty.
// `npm run dev` (`--dev`) is explicit development mode: DEV_MODE=true, sign-in codes in the dev
// mailbox on this machine when SMTP_URL is unset (src/config/mail-mode.ts).
import './hold-notices.js';
import { oneLine } from '../cli/errors.js';
import { type DemoNotice, seedDemoIfEmpty } from '../cli/demo.js';
import { loadConfig } from '../config/load.js';
import { boot } from './boot.js';
import { checkBeforeStart } from './start-checks.js';

if (process.argv.includes('--dev')) process.env.DEV_MODE = 'true';

let demo: DemoNotice = null;
if (process.argv.includes('--demo')) {
  try {
    const config = loadConfig();
    checkBeforeStart('all', config);
    demo = await seedDemoIfEmpty(config);
    if (!demo)
      console.log('--demo: the data directory already holds data; starting without seeding.');
  } catch (error) {
    console.error(`cannot start: ${oneLine(error).replace(/^error: /, '')}`);
    process.exit(1);
  }
}

await boot('all', (runtime) => {
  for (const [name, url] of runtime.urls) console.log(`${name}: ${url}`);
  if (demo) console.log(`\n${demo(runtime.urls.get('feedback'))}`);
});
