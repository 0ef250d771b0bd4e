/**
 * The e-mail sign-in steps one at a time, as the throttle and code tests drive them: an
 * authorization request up to its e-mail form, a code asked for, the codes the dev mailbox holds.
 */
import fs from 'node:fs';
import { CookieJar, formIn, request } from './browserless.js';
import { type oidc, startAuthorization } from './client.js';

type Server = { base: string; mailboxPath: string };

/** a fresh authorization request up to its e-mail form (`headers`: e.g. `x-forwarded-for`) */
export async function atEmailForm(
  server: Server,
  config: oidc.Configuration,
  headers: Record<string, string> = {},
) {
  const pending = await startAuthorization(config, server.base, 'openid');
  const jar = new CookieJar();
  const interaction = new URL(
    (await request(jar, pending.url, undefined, headers)).headers.get('location') ?? '',
    server.base,
  ).href;
  const page = await (await request(jar, interaction, undefined, headers)).text();
  return { jar, interaction, emailForm: formIn(page, server.base, '/email') };
}

/** authorize → e-mail form; the code form when a code was sent, else the refusal */
export async function askForCode(
  server: Server,
  config: oidc.Configuration,
  email: string,
  headers: Record<string, string> = {},
) {
  const { jar, interaction, emailForm } = await atEmailForm(server, config, headers);
  const sent = await request(jar, emailForm.action, { ...emailForm.fields, email }, headers);
  if (sent.status !== 303) return { refused: sent, jar, codeForm: null };
  const page = await (await request(jar, interaction, undefined, headers)).text();
  return { refused: null, jar, codeForm: formIn(page, server.base, '/code') };
}

/** every code the dev mailbox holds, oldest first, as the mail's text gives it */
export function mailedCodes(mailboxPath: string): string[] {
  if (!fs.existsSync(mailboxPath)) return [];
  return fs
    .readFileSync(mailboxPath, 'utf8')
    .trim()
    .split('\n')
    .map((line) => /sign-in code is (\S+)/.exec((JSON.parse(line) as { text: string }).text)?.[1])
    .filter((code): code is string => code !== undefined);
}

/** what a code page answered: where it went (a 303), or the sentence about the code it showed */
export async function codeOutcome(res: Response): Promise<string> {
  if (res.status === 303) return `303 ${new URL(res.headers.get('location') ?? '').pathname}`;
  const said = /That code [^.]*\.(?: [^<]*?left\.| Ask for a new one\.)?/.exec(await res.text());
  return `${res.status} ${said?.[0] ?? '(no sentence)'}`;
}
