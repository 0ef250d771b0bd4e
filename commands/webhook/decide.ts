/**
 * Webhook decisions. The URL's safety (scheme, private targets, DNS) is checked by the action
 * before a command is built, because it needs the resolver; the decider keeps the rules that
 * need nothing but the command and the state.
 */
import { InvalidArgument, NotFound } from '../shared/errors.js';
import type {
  OAuthGrant,
  WebhookCreated,
  WebhookEvent,
  WebhookEventType,
  WebhookUpdated,
} from './events.js';
import type { WebhookFacts, WebhookState } from './state.js';
import { lineText } from '../shared/text.js';

type Cmd<T extends string, D> = { type: T; data: D };
export type CreateWebhook = Cmd<'CreateWebhook', WebhookCreated['data']>;
export type UpdateWebhook = Cmd<
  'UpdateWebhook',
  {
    url?: string;
    description?: string;
    eventTypes?: WebhookEventType[] | null;
    productKeys?: string[] | null;
    enabled?: boolean;
    /** who sets the URL, if it changes: an OAuth app's grant, or null for the maker's own credential */
    grant?: OAuthGrant | null;
  }
>;
export type RotateWebhookSecret = Cmd<
  'RotateWebhookSecret',
  { secret: string; previousValidUntil: number }
>;
/**
 * The service switching a webhook off (410 Gone, five days of failures). `ifUrl`: only while the
 * webhook still has that URL — the one the failing attempts went to; a URL set since is another
 * receiver, which nothing has found failing.
 */
export type DisableWebhook = Cmd<'DisableWebhook', { reason: string; ifUrl?: string }>;
export type DeleteWebhook = Cmd<'DeleteWebhook', Record<string, never>>;

export type WebhookCommand =
  | CreateWebhook
  | UpdateWebhook
  | RotateWebhookSecret
  | DisableWebhook
  | DeleteWebhook;

export const DESCRIPTION_MAX = 200;

export function decideWebhook(command: WebhookCommand, state: WebhookState): WebhookEvent[] {
  if (command.type === 'CreateWebhook') {
    if (state.status !== 'absent') throw new InvalidArgument('webhook id already used');
    return [{ type: 'WebhookCreated', data: { ...command.data, ...checked(command.data) } }];
  }
  if (state.status === 'absent' || state.status === 'deleted') {
    throw new NotFound('webhook not found');
  }
  switch (command.type) {
    case 'UpdateWebhook':
      return update(command.data, state);
    case 'RotateWebhookSecret':
      return [{ type: 'WebhookSecretRotated', data: command.data }];
    case 'DisableWebhook':
      if (state.status === 'disabled') return [];
      if (command.data.ifUrl !== undefined && command.data.ifUrl !== state.url) return [];
      return [{ type: 'WebhookDisabled', data: { reason: command.data.reason } }];
    case 'DeleteWebhook':
      return [{ type: 'WebhookDeleted', data: {} }];
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

function update(
  data: UpdateWebhook['data'],
  state: WebhookFacts & { status: 'enabled' | 'disabled' },
): WebhookEvent[] {
  const { enabled, grant, ...fields } = data;
  const wanted = checked(fields);
  const changed: WebhookUpdated['data'] = {};
  if (wanted.url !== undefined && wanted.url !== state.url) {
    changed.url = wanted.url;
    // the receiver is now whoever set this URL's: a disconnected app's grant no longer covers it
    if ((grant ?? null) !== null || state.grant !== null) changed.grant = grant ?? null;
  }
  if (wanted.description !== undefined && wanted.description !== state.description) {
    changed.description = wanted.description;
  }
  if (wanted.eventTypes !== undefined && !sameSet(wanted.eventTypes, state.eventTypes)) {
    changed.eventTypes = wanted.eventTypes;
  }
  if (wanted.productKeys !== undefined && !sameSet(wanted.productKeys, state.productKeys)) {
    changed.productKeys = wanted.productKeys;
  }
  const resuming = enabled === true && state.status === 'disabled';
  // resuming on purpose takes the receiver over: it then stands under the resumer's consent
  // (none to lose for an admin's own credential), no longer the grant of the app that set it,
  // which may have ended (the webhook worker stops a webhook whose app lost its grant)
  if (resuming && changed.grant === undefined && !sameGrant(grant ?? null, state.grant)) {
    changed.grant = grant ?? null;
  }
  const events: WebhookEvent[] = [];
  if (Object.keys(changed).length > 0) events.push({ type: 'WebhookUpdated', data: changed });
  if (resuming) {
    events.push({ type: 'WebhookEnabled', data: {} });
  }
  if (enabled === false && state.status === 'enabled') {
    events.push({ type: 'WebhookDisabled', data: { reason: null } });
  }
  return events;
}

/** Normalized filters: sorted, without repeats; a description trimmed. */
function checked<
  T extends Partial<Pick<WebhookFacts, 'description' | 'eventTypes' | 'productKeys'>>,
>(fields: T): T {
  const out = { ...fields };
  if (out.description !== undefined) {
    out.description = lineText(out.description.trim(), 'description', DESCRIPTION_MAX);
  }
  if (out.eventTypes) {
    if (out.eventTypes.length === 0) throw new InvalidArgument('eventTypes: list at least one');
    out.eventTypes = [...new Set(out.eventTypes)].sort();
  }
  if (out.productKeys) {
    if (out.productKeys.length === 0) throw new InvalidArgument('productKeys: list at least one');
    out.productKeys = [...new Set(out.productKeys)].sort();
  }
  return out;
}

function sameSet(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameGrant(a: OAuthGrant | null, b: OAuthGrant | null): boolean {
  return (
    a === b || (a !== null && b !== null && a.userId === b.userId && a.clientId === b.clientId)
  );
}
