/**
 * Switching a webhook off for its receiver's failures (a 410, five days of them, a consent gone):
 * a command on the webhook's stream, which keeps it on when its URL changed since the attempts
 * failed there.
 */
import { webhookDecider, webhookStreamId } from '../../../commands/webhook/index.js';
import type { WebhookDoc } from '../../../projections/webhooks/document.js';
import type { Logger } from '../../platform/logger.js';
import type { CommandHandler } from '../../write/command-handler.js';
import type { WebhookClock } from '../clock.js';

/** false when the webhook stays on: its URL is no longer the one its attempts failed at */
export async function disableWebhook(
  deps: { commandHandler: CommandHandler; clock: WebhookClock; logger: Logger },
  hook: WebhookDoc,
  reason: string,
): Promise<boolean> {
  const { logger } = deps;
  try {
    const result = await deps.commandHandler.handle(
      webhookStreamId(hook._ws, hook.id),
      webhookDecider,
      // the URL the attempts failed at (attempt.ts): a URL set since is not disabled for them
      { type: 'DisableWebhook', data: { reason, ifUrl: hook.url } },
      { actor: null, now: deps.clock.now() },
    );
    if (result.state.status === 'enabled') {
      logger.info('webhook kept on: its URL changed since the attempt', { webhook: hook.id });
      return false;
    }
    logger.warn('webhook disabled', { webhook: hook.id, reason });
  } catch (error) {
    logger.warn('could not disable webhook', {
      webhook: hook.id,
      error: (error as Error).message,
    });
  }
  return true;
}
