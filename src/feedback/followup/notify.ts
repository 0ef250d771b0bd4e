/**
 * notify_people: records, as one PeopleNotified event on the item's stream, who should hear that
 * the item shipped. Spec "Close the loop" rule 2: "Mail delivery is not finished: the call
 * records who should hear and no mail leaves. `delivered` means eligible, not that anything
 * arrived." Nothing here sends anything.
 *
 * Recipients are the item's requesters — everyone on it: the submitter, the +1s and the people
 * who replied, including those carried over from merged items — each once, submitter first.
 * Eligible means a verified address: tier `email` (they entered the code sent to it) or `google`
 * (the identity provider verified it). An address merely typed into a capture box is kept on an
 * unverified person (tier `anonymous`) and must never reach whoever owns it (README "Visitors":
 * it "never reaches the person who owns it"), or anyone could have the service mail a stranger.
 * A requester is skipped with a reason:
 *   `anonymous`         an anonymous visitor without an address: no way to reach them
 *   `unverified`        an address nobody proved (typed in, tier `anonymous`)
 *   `no-email`          a verified person without an e-mail address (the person decider forbids it)
 *   `unknown-person`    no person record (not expected; kept so the answer never lies)
 *   `already-notified`  already told about the item's current status (a repeat counts nobody twice)
 *
 * Not shipped (spec: "what happens when those are called on an item in another status: not shown
 * here beyond the error envelope"): refused with 400 `invalid-argument` — the only declared
 * status that fits — and nothing is appended. So is an item merged into another one: its
 * requesters are the survivor's now. The decider enforces the same rule (FailedPrecondition,
 * 409 elsewhere); it is mapped here to the declared 400.
 */
import {
  itemDecider,
  itemStreamId,
  type NotifyCandidate,
  type NotifyRecipient,
  peopleIn,
  planNotification,
} from '../../../commands/item/index.js';
import { FailedPrecondition, InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import { showsCharacter } from '../../../commands/shared/text.js';
import { type PersonDoc, peopleOf } from '../../../projections/people/projector.js';
import { assertItemOfProduct, type CommandContext, type FeedbackDeps } from '../actions/deps.js';
import { followMerges, mergedMessage, namingSurvivor } from '../actions/merge-chain.js';
import type { ItemAddress } from '../actions/triage.js';

export interface NotifyRecipientView {
  personId: string;
  displayName: string | null;
  delivered: boolean;
  reason?: string;
}

export interface NotifyResult {
  notified: number;
  skipped: number;
  recipients: NotifyRecipientView[];
  position: bigint | null;
}

export async function notifyPeople(
  deps: FeedbackDeps,
  context: CommandContext,
  input: ItemAddress & { message?: string },
): Promise<NotifyResult> {
  assertItemOfProduct(input.productKey, input.itemKey);
  const streamId = itemStreamId(input.workspaceId, input.itemKey);
  const { state } = await deps.commandHandler.load(streamId, itemDecider);
  if (state.status === 'absent') throw new NotFound('item not found');
  if (state.status === 'merged') {
    const { chain } = await followMerges(deps, input.workspaceId, input.itemKey);
    throw new InvalidArgument(`${mergedMessage(chain)}; notify the people of ${chain.at(-1)}`);
  }
  if (state.itemStatus !== 'shipped')
    throw notShipped(input.itemKey, state.itemStatus, 'its requesters are told');

  const personIds = Object.keys(peopleIn(state.roster));
  const people = await peopleOf(deps.readStore).find({ _id: { $in: personIds } });
  const byId = new Map(people.map((p) => [p._id, p]));
  const candidates: NotifyCandidate[] = personIds.map((personId) => {
    const person = byId.get(personId);
    if (!person) return { personId, eligible: false, reason: 'unknown-person' };
    return { personId, ...eligibility(person) };
  });

  // a message of only spaces says nothing: recorded (and sent to webhooks) as no message
  const message = input.message && showsCharacter(input.message) ? input.message : undefined;
  const notify = () =>
    deps.commandHandler.handle(
      streamId,
      itemDecider,
      {
        type: 'NotifyPeople',
        data: { candidates, ...(message ? { message } : {}) },
      },
      context,
    );
  let result: Awaited<ReturnType<typeof notify>>;
  try {
    result = await notify();
  } catch (error) {
    // the status changed (or the item was merged) between our check and the append
    const refusal = await namingSurvivor(deps, input.workspaceId, input.itemKey, error);
    if (refusal instanceof FailedPrecondition) throw new InvalidArgument(refusal.message);
    throw refusal;
  }
  const appended = result.events.find((e) => e.type === 'PeopleNotified');
  // Nothing appended = nobody new to tell: the plan the decider made is all skips.
  const recipients: NotifyRecipient[] = appended
    ? (appended.data as { recipients: NotifyRecipient[] }).recipients
    : result.state.status === 'absent'
      ? []
      : planNotification(result.state, candidates);
  const views = recipients.map((r) => ({
    personId: r.personId,
    displayName: byId.get(r.personId)?.displayName ?? null,
    delivered: r.delivered,
    ...(r.reason ? { reason: r.reason } : {}),
  }));
  const notified = views.filter((r) => r.delivered).length;
  return {
    notified,
    skipped: views.length - notified,
    recipients: views,
    position: result.position,
  };
}

/** Only a verified address makes a requester reachable; the tier is what records the proof. */
export function eligibility(
  person: Pick<PersonDoc, 'tier' | 'email'>,
): { eligible: true } | { eligible: false; reason: string } {
  if (person.tier === 'anonymous') {
    return { eligible: false, reason: person.email ? 'unverified' : 'anonymous' };
  }
  return person.email ? { eligible: true } : { eligible: false, reason: 'no-email' };
}

/** `doing`: what waits for the item to ship ("its requesters are told", "it gets a changelog entry") */
export function notShipped(itemKey: string, status: string, doing: string): InvalidArgument {
  return new InvalidArgument(`item must be shipped before ${doing}: ${itemKey} is ${status}`);
}
