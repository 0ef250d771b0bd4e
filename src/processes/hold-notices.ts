// Imported first by every process entry, before anything imports oidc-provider: the notice it
// writes as it is imported waits for the process's logger (src/platform/library-notices.ts).
import { holdLibraryNotices } from '../platform/library-notices.js';

holdLibraryNotices();
