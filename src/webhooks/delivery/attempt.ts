/**
 * One delivery attempt: re-read the delivery and its webhook (either may have changed since it
 * was queued), build the body, check the target again, sign with every secret that currently
 * signs, send, and record the attempt with what follows from the answer — delivered, a retry on
 * the schedule (or failed for good), or the receiver gone. The dispatcher acts on the result.
 */
import type { OAuthGrant } from '../../../commands/webhook/index.js';
import type { LegacyApp, WebhookDoc } from '../../../projections/webhooks/document.js';
import { webhooksOf } from '../../../projections/webhooks/document.js';
import type { Logger } from '../../platform/logger.js';
import type { ReadStore } from '../../readstore/types.js';
import type { WebhookClock } from '../clock.js';
import type { SecretBox } from '../secrets.js';
import { recordFailure, recordSuccess, stillTheReceiver } from './health.js';
import { type Attempt, type DeliveryDoc, deliveriesOf, KEPT_ATTEMPTS } from './records.js';
import { ATTEMPT_TIMEOUT_MS, nextAttemptAt, type Verdict, verdictOf } from './schedule.js';
import type { AttemptResponse, Sender } from './sender.js';
import { signedHeaders } from './signer.js';
import { checkTarget, type TargetPolicy } from './target.js';

/** The OAuth app that set a webhook's URL: by its grant, or by name before events carried it. */
export type AppConsent = OAuthGrant | LegacyApp;

export interface AttemptDeps {
  readStore: ReadStore;
  clock: WebhookClock;
  sender: Sender;
  policy: TargetPolicy;
  secrets: SecretBox;
  payloadOf(doc: DeliveryDoc): Promise<string | null>;
  /** one line per attempt, with the correlation id of the request that caused the message */
  logger: Logger;
  /** an attempt was sent (or could not be): its outcome and how long it took (metrics) */
  onAttempt?(outcome: Verdict['kind'], seconds: number): void;
  /**
   * whether the user still holds a live grant for the OAuth app that set a webhook's URL: the
   * app may end its grant itself (RFC 7009 revocation, a reused refresh token, expiry) without
   * the user disconnecting it, and its receiver must not outlive that consent
   */
  consentHeld?(consent: AppConsent): Promise<boolean>;
}

export type AttemptResult =
  /** nothing was sent: the delivery is done, or its webhook is paused, disabled or gone */
  | { kind: 'skipped' }
  /** `recovered`: it had been failing, and what waited for a later retry is due now */
  | ({ kind: 'delivered'; recovered: boolean } & Requeued)
  /** `at` null: the schedule is used up (failed); `disable`: five days of failures */
  | ({ kind: 'retry'; hook: WebhookDoc; at: number | null; disable: string | null } & Requeued)
  | ({ kind: 'gone'; hook: WebhookDoc; disable: string } & Requeued)
  /**
   * our own stop cut it before the receiver answered: not the receiver's failure, so nothing is
   * recorded (no attempt, no step toward disabling the webhook); the delivery stays due and is
   * sent again once a worker delivers (after the next start)
   */
  | { kind: 'stopped' };

/**
 * `requeued`: redeliver_webhook or recover_webhook queued the delivery again while this attempt
 * was under way. The attempt is in its log, but its outcome is not written over the request (a
 * failed test `failed`, an item's message its next retry minutes away): it is due now.
 */
interface Requeued {
  requeued: boolean;
}

export function createAttempts(deps: AttemptDeps) {
  const { readStore, clock } = deps;

  function signingSecrets(hook: WebhookDoc, now: number): string[] {
    const current = deps.secrets.open(hook._secret, hook.id);
    const previous: string[] = [];
    // only the secret the last rotation replaced; a document projected before that rule may
    // still list older ones, which must not sign (a second rotation retires a leaked secret)
    for (const old of hook._previousSecrets.slice(0, 1)) {
      if (old.validUntil <= now) continue;
      try {
        previous.push(deps.secrets.open(old.secret, hook.id));
      } catch {
        // an unreadable old secret simply stops signing; the current one still does
      }
    }
    return [current, ...previous];
  }

  async function send(doc: DeliveryDoc, hook: WebhookDoc, at: number): Promise<AttemptResponse> {
    try {
      const body = doc._payload ?? (await deps.payloadOf(doc));
      if (body === null) throw new Error('the message is no longer in the event log');
      const target = await checkTarget(hook.url, deps.policy);
      const headers = signedHeaders({
        messageId: doc.messageId,
        secrets: signingSecrets(hook, at),
        body,
        // receivers compare webhook-timestamp with their own clock: always the real time
        sentAt: new Date(),
      });
      // beside the Standard Webhooks headers (not signed): the request that caused the message,
      // for a receiver's logs to meet ours
      if (doc._correlationId) headers['x-correlation-id'] = doc._correlationId;
      return await deps.sender.send({ target, headers, body, timeoutMs: ATTEMPT_TIMEOUT_MS });
    } catch (error) {
      return { status: null, excerpt: null, error: (error as Error).message, durationMs: 0 };
    }
  }

  async function record(
    doc: DeliveryDoc,
    hook: WebhookDoc,
    at: number,
    response: AttemptResponse,
  ): Promise<AttemptResult> {
    const now = clock.now();
    const verdict = verdictOf(response.status, response.retryAfter, now);
    deps.onAttempt?.(verdict.kind, response.durationMs / 1000);
    deps.logger.info('webhook attempt', {
      ...attemptFields(doc),
      attempt: doc.attemptCount + 1,
      outcome: verdict.kind,
      responseStatus: response.status,
      durationMs: response.durationMs,
      ...(response.error ? { error: response.error } : {}),
    });
    const entry: Attempt = {
      at,
      status: verdict.kind === 'delivered' ? 'succeeded' : 'failed',
      durationMs: response.durationMs,
      responseStatus: response.status,
      responseBodyExcerpt: response.excerpt,
      error: response.error,
    };
    const base = {
      attemptCount: doc.attemptCount + 1,
      lastAttemptAt: at,
      lastResponseStatus: response.status,
      _attempts: [...doc._attempts, entry].slice(-KEPT_ATTEMPTS),
    };
    const deliveries = deliveriesOf(readStore);
    // this attempt answers one call that queued the delivery again (redeliver, recover) before
    // it began; two calls are two attempts, so with another still owed it is due again now
    const owed = doc._owed ?? 0;
    const answered = owed > 0 ? { $inc: { _owed: -1 } } : {};
    /** the outcome, unless the delivery was queued again meanwhile: then the attempt only */
    const writeOutcome = async (outcome: Record<string, unknown>): Promise<boolean> => {
      if (owed <= 1) {
        const mine = { _id: doc._id, status: 'pending', _requeues: doc._requeues ?? null };
        const written = await deliveries.updateOne(mine, {
          $set: { ...base, ...outcome },
          ...answered,
        });
        if (written.matchedCount > 0) return false;
      }
      const requeued = await deliveries.updateOne({ _id: doc._id }, { $set: base, ...answered });
      return requeued.matchedCount > 0;
    };
    // a test is one attempt: whoever sent it waits for what the receiver did, not for a day of
    // retries (redeliver_webhook sends it again, once)
    const test = doc.eventType === 'webhook.test';
    if (verdict.kind !== 'delivered' && !(await stillTheReceiver(readStore, hook))) {
      // a failure (or a 410) of a receiver the webhook no longer has — its URL replaced, or the
      // webhook re-enabled or its secret rotated while the attempt was under way — says nothing
      // of the new one: no step of the delivery's schedule, due now there (a test was tried once)
      const requeued = await writeOutcome(
        test ? { status: 'failed', nextAttemptAt: null } : { nextAttemptAt: now },
      );
      return { kind: 'retry', hook, at: requeued || test ? null : now, disable: null, requeued };
    }
    switch (verdict.kind) {
      case 'delivered': {
        const requeued = await writeOutcome({ status: 'succeeded', nextAttemptAt: null });
        const recovered = await recordSuccess(readStore, hook._id);
        if (recovered) {
          await deliveries.updateMany(
            { _hook: hook._id, status: 'pending', nextAttemptAt: { $gt: now } },
            { $set: { nextAttemptAt: now } },
          );
        }
        return { kind: 'delivered', recovered, requeued };
      }
      case 'gone': {
        // the message stays queued: re-enabling the webhook sends it. A test was tried once:
        // sent again on re-enabling, it reached the receiver late, after newer messages.
        const requeued = await writeOutcome(
          test ? { status: 'failed', nextAttemptAt: null } : { nextAttemptAt: now },
        );
        return {
          kind: 'gone',
          hook,
          requeued,
          disable: `the receiver answered 410 Gone on ${new Date(now).toISOString()}`,
        };
      }
      case 'failed': {
        const failures = doc._failures + 1;
        const next = test ? null : nextAttemptAt(failures, now, verdict.retryAfterMs);
        const requeued = await writeOutcome({
          _failures: failures,
          status: next === null ? 'failed' : 'pending',
          nextAttemptAt: next,
        });
        // A failed test is the maker checking a receiver, not the webhook's traffic failing: it
        // does not start or extend the five days of failures that disable the webhook.
        const since = test
          ? null
          : await recordFailure(readStore, {
              hookKey: hook._id,
              now,
              changedAt: hook._receiverSince ?? hook.updatedAt,
            });
        const disable =
          since === null
            ? null
            : `every delivery attempt failed for 5 days (since ${new Date(since).toISOString()})`;
        return { kind: 'retry', hook, at: requeued ? null : next, disable, requeued };
      }
      default: {
        const _exhaustive: never = verdict;
        return { kind: 'skipped' };
      }
    }
  }

  return {
    async run(queued: DeliveryDoc, paused: (hookKey: string) => boolean): Promise<AttemptResult> {
      const doc = await deliveriesOf(readStore).findOne({ _id: queued._id });
      if (doc?.status !== 'pending' || paused(doc._hook)) return { kind: 'skipped' };
      const hook = await webhooksOf(readStore).findOne({ _id: doc._hook });
      if (!hook || hook._deleted || !hook.enabled) return { kind: 'skipped' };
      const consent = hook._grant ?? hook._legacyApp ?? null;
      if (consent && deps.consentHeld && !(await deps.consentHeld(consent))) {
        // nothing is sent; like a 410 the message stays queued for an admin who resumes it
        const app =
          'clientId' in consent ? `(client ${consent.clientId})` : `"${consent.clientName}"`;
        return {
          kind: 'gone',
          hook,
          requeued: false,
          disable: `the OAuth app ${app} that set its URL no longer holds the user's consent`,
        };
      }
      const at = clock.now();
      const response = await send(doc, hook, at);
      if (response.stopped) return { kind: 'stopped' };
      return record(doc, hook, at, response);
    },
  };
}

/** What names an attempt in the worker's log lines: the request that caused it, where it goes. */
export function attemptFields(doc: DeliveryDoc): Record<string, unknown> {
  return {
    correlationId: doc._correlationId ?? undefined,
    webhook: doc.webhookId,
    delivery: doc._id,
    messageId: doc.messageId,
    eventType: doc.eventType,
  };
}
