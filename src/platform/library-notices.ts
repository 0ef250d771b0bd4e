/**
 * oidc-provider writes its notices with console.warn / console.info as plain text
 * (`oidc-provider WARNING: …`, in colour on a terminal): once as it is imported (a Node.js
 * version it does not list), once when a request reaches it with its body already read — which
 * our own steps before it do by design (registration policy, PAR defaults, the JWT revocation
 * check) and which it then takes from `req.body`, as it says. Amid LOG_FORMAT=json lines such a
 * line breaks every log shipper that reads JSON. Its notices go through the process's logger
 * instead (a warning, `source: "oidc-provider"`); anything else written to the console is left
 * alone. The ones written before the logger exists (the import) are held until it does.
 */
import type { Logger } from './logger.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the colour codes it wraps lines in
const NOTICE = /^(?:\u001b\[[0-9;]*m)?oidc-provider (WARNING|NOTICE): ([\s\S]*?)(?:\u001b\[0m)?$/;

interface Notice {
  level: 'warn' | 'info';
  message: string;
}

let held: Notice[] | null = null;
let target: Logger | null = null;

function tell(logger: Logger, notice: Notice): void {
  logger[notice.level](notice.message, { source: 'oidc-provider' });
}

/** From now on, oidc-provider's console lines are kept until `sendLibraryNoticesTo`. */
export function holdLibraryNotices(): void {
  if (held) return;
  held = [];
  for (const method of ['warn', 'info'] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      const match = args.length === 1 && typeof args[0] === 'string' && NOTICE.exec(args[0]);
      if (!match) return original(...args);
      const notice: Notice = {
        level: match[1] === 'WARNING' ? 'warn' : 'info',
        message: match[2]!,
      };
      if (target) tell(target, notice);
      else held?.push(notice);
    };
  }
}

/** oidc-provider's notices, those held and those to come, as `logger`'s entries. */
export function sendLibraryNoticesTo(logger: Logger): void {
  holdLibraryNotices();
  target = logger;
  for (const notice of held?.splice(0) ?? []) tell(logger, notice);
}
