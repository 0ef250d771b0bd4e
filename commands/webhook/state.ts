import type { OAuthGrant, WebhookEvent, WebhookEventType } from './events.js';

export interface PreviousSecret {
  secret: string;
  validUntil: number;
}

/**
 * README, "What you receive": "two of them, space-separated, for 24 hours after a secret
 * rotation". Only the secret a rotation replaces keeps signing, until its deadline; any older one
 * is retired at once, so an admin who rotates again because a secret leaked does stop it. A list
 * of at most one, so read models written when three were kept keep their shape; replaying an old
 * log gives the same result as this rule (nothing but the last replaced secret).
 */
export function previousSecretsAfterRotation(
  replaced: string,
  validUntil: number,
): PreviousSecret[] {
  return [{ secret: replaced, validUntil }];
}

export interface WebhookFacts {
  webhookId: string;
  workspaceId: string;
  url: string;
  description: string;
  eventTypes: WebhookEventType[] | null;
  productKeys: string[] | null;
  secret: string;
  previousSecrets: PreviousSecret[];
  /** the OAuth app's grant that set the URL (events.ts OAuthGrant); null: the maker's own */
  grant: OAuthGrant | null;
}

/**
 * `enabled` / `disabled`: configured, delivering or paused (with the reason the service gave, or
 * null when an admin paused it). `deleted`: gone for good; every command answers not found.
 */
export type WebhookState =
  | { status: 'absent' }
  | ({ status: 'enabled' } & WebhookFacts)
  | ({ status: 'disabled'; reason: string | null } & WebhookFacts)
  | { status: 'deleted' };

export const initialWebhookState = (): WebhookState => ({ status: 'absent' });

export function evolveWebhook(state: WebhookState, event: WebhookEvent): WebhookState {
  if (event.type === 'WebhookCreated') {
    return {
      status: 'enabled',
      ...event.data,
      grant: event.data.grant ?? null,
      previousSecrets: [],
    };
  }
  if (state.status === 'absent' || state.status === 'deleted') return state;
  switch (event.type) {
    case 'WebhookUpdated':
      return { ...state, ...event.data };
    case 'WebhookDisabled':
      return { ...factsOf(state), status: 'disabled', reason: event.data.reason };
    case 'WebhookEnabled':
      return state.status === 'enabled' ? state : { ...factsOf(state), status: 'enabled' };
    case 'WebhookSecretRotated':
      return {
        ...state,
        secret: event.data.secret,
        previousSecrets: previousSecretsAfterRotation(state.secret, event.data.previousValidUntil),
      };
    case 'WebhookDeleted':
      return { status: 'deleted' };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

function factsOf(state: WebhookFacts): WebhookFacts {
  const { webhookId, workspaceId, url, description, eventTypes, productKeys } = state;
  const { secret, previousSecrets, grant } = state;
  return {
    webhookId,
    workspaceId,
    url,
    description,
    eventTypes,
    productKeys,
    secret,
    previousSecrets,
    grant,
  };
}
