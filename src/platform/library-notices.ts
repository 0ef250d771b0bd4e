/**
 * oidc-provider writes its notices with console.warn / console.info as plain text
 * (`oidc-provider WARNING: …`, in colour on a terminal): once as it is imported (a Node.js
 * version it does not list), once when a request reaches it with its body already read — which
 * our own steps before it do by design (registration policy, PAR defaults, the JWT revocation
 * check) and which it then takes from `req.body`, as it says. Amid LOG_FORMAT=json lines such a
 * line breaks every log shipper that reads JSON. Its notices go through the process's logger
 * instead (a warning, `source: "oidc-provider"`); anything else written to the console is left
 * alone. The ones written before the logger exists (the import) are held until it does; a
 * process that refuses to start before it has a logger (a bad setting) writes them as they came,
 * with its refusal, so the operator reads them where they read why it did not start.
 */
import type { Logger } from './logger.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the colour codes it wraps lines in
const NOTICE = /^(?:\u001b\[[0-9;]*m)?oidc-provider (WARNING|NOTICE): ([\s\S]*?)(?:\u001b\[0m)?$/;

interface Notice {
  level: 'warn' | 'info';
  message: string;
  /** as oidc-provider wrote it */
  line: string;
}

let held: Notice[] | null = null;
/** a logger, or the console as it was (no logger will be made) */
let target: Logger | 'console' | null = null;
const originals = { warn: console.warn.bind(console), info: console.info.bind(console) };

function tell(to: Logger | 'console', notice: Notice): void {
  if (to === 'console') originals[notice.level](notice.line);
  else to[notice.level](notice.message, { source: 'oidc-provider' });
}

/** From now on, oidc-provider's console lines are kept until `sendLibraryNoticesTo`. */
export function holdLibraryNotices(): void {
  if (held) return;
  held = [];
  for (const method of ['warn', 'info'] as const) {
    originals[method] = console[method].bind(console);
    const original = originals[method];
    console[method] = (...args: unknown[]) => {
      const match = args.length === 1 && typeof args[0] === 'string' && NOTICE.exec(args[0]);
      if (!match) return original(...args);
      const notice: Notice = {
        level: match[1] === 'WARNING' ? 'warn' : 'info',
        message: match[2]!,
        line: args[0] as string,
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

/**
 * oidc-provider's notices, those held and those to come, on the console as it wrote them: the
 * process refuses to start before it made a logger, and says why there too.
 */
export function sendLibraryNoticesToConsole(): void {
  if (target !== null) return;
  target = 'console';
  for (const notice of held?.splice(0) ?? []) tell('console', notice);
}
