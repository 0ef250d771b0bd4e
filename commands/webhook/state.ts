import type { WebhookEvent, WebhookEventType } from './events.js';

/** How many replaced secrets a webhook remembers (each signs until its own deadline). */
export const KEPT_PREVIOUS_SECRETS = 3;

export interface PreviousSecret {
  secret: string;
  validUntil: number;
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
    return { status: 'enabled', ...event.data, previousSecrets: [] };
  }
  if (state.status === 'absent' || state.status === 'deleted') return state;
  switch (event.type) {
    case 'WebhookUpdated':
      return { ...state, ...event.data };
    case 'WebhookDisabled':
      return { ...factsOf(state), status: 'disabled', reason: event.data.reason };
    case 'WebhookEnabled':
      return state.status === 'enabled' ? state : { ...factsOf(state), status: 'enabled' };
    case 'WebhookSecretRotated': {
      const previous = { secret: state.secret, validUntil: event.data.previousValidUntil };
      return {
        ...state,
        secret: event.data.secret,
        previousSecrets: [previous, ...state.previousSecrets].slice(0, KEPT_PREVIOUS_SECRETS),
      };
    }
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
  const { secret, previousSecrets } = state;
  return {
    webhookId,
    workspaceId,
    url,
    description,
    eventTypes,
    productKeys,
    secret,
    previousSecrets,
  };
}
