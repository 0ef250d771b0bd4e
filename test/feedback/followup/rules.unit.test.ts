import { expect } from 'chai';
import type { ItemStatus } from '../../../commands/item/index.js';
import {
  awaitingReply,
  DAY_MS,
  type FollowupFacts,
  isAwaitingReplyOn,
  isShippedUnnotified,
  isStalePromise,
  owesReply,
} from '../../../src/feedback/followup/rules.js';

const NOW = 1_750_000_000_000;
const ADA = 'p-ada';
const BOB = 'p-bob';

function item(overrides: Partial<FollowupFacts> = {}): FollowupFacts {
  return {
    status: 'new',
    statusChangedAt: null,
    notifiedAt: null,
    createdAt: NOW - 10 * DAY_MS,
    _mergedInto: null,
    _lastSpeaker: { kind: 'person', id: ADA, at: NOW - 10 * DAY_MS },
    _announced: false,
    ...overrides,
  };
}

const ALL: ItemStatus[] = ['new', 'planned', 'in-progress', 'shipped', 'declined'];

describe('Follow-up rules', () => {
  describe('When a person spoke last on an item', () => {
    // spec: "awaitingReply: true when the person spoke last on an open thread and is still waiting"
    for (const status of ALL) {
      const open = status === 'new' || status === 'planned' || status === 'in-progress';
      it(`${open ? 'awaits' : 'does not await'} a reply when the item is ${status}`, () => {
        const facts = item({ status });
        expect(isAwaitingReplyOn(facts, ADA)).to.equal(open);
        expect(owesReply(facts)).to.equal(open);
      });
    }

    it('does not await a reply on an item merged into another', () => {
      const facts = item({ _mergedInto: 'ACME-1' });
      expect(isAwaitingReplyOn(facts, ADA)).to.equal(false);
      expect(owesReply(facts)).to.equal(false);
    });

    it('leaves the other people on the item not waiting', () => {
      expect(isAwaitingReplyOn(item(), BOB)).to.equal(false);
    });
  });

  describe('When a maker or an agent answered last', () => {
    for (const kind of ['maker', 'agent'] as const) {
      it(`nobody awaits a reply after a ${kind} reply`, () => {
        const facts = item({ _lastSpeaker: { kind, id: 'u1', at: NOW } });
        expect(owesReply(facts)).to.equal(false);
        expect(isAwaitingReplyOn(facts, ADA)).to.equal(false);
        expect(awaitingReply([facts], ADA)).to.equal(false);
      });
    }
  });

  describe('When another person replied after the first', () => {
    it('makes the later person the one waiting', () => {
      const facts = item({ _lastSpeaker: { kind: 'person', id: BOB, at: NOW } });
      expect(isAwaitingReplyOn(facts, BOB)).to.equal(true);
      expect(isAwaitingReplyOn(facts, ADA)).to.equal(false);
    });
  });

  describe('When a person has several items', () => {
    it('awaits a reply when any open one has them speaking last', () => {
      const answered = item({ _lastSpeaker: { kind: 'maker', id: 'u1', at: NOW } });
      const closed = item({ status: 'shipped' });
      const waiting = item({ status: 'planned' });
      expect(awaitingReply([answered, closed], ADA)).to.equal(false);
      expect(awaitingReply([answered, closed, waiting], ADA)).to.equal(true);
    });
  });

  describe('When a promise has not moved', () => {
    const days = 30;
    // spec: "stalePromises ... planned or in-progress with no status change for longer than a configurable period"
    for (const status of ['planned', 'in-progress'] as const) {
      it(`is stale one millisecond past ${days} days when ${status}`, () => {
        expect(isStalePromise(item({ status, statusChangedAt: NOW - days * DAY_MS }), NOW, days)).to
          .be.false;
        expect(
          isStalePromise(item({ status, statusChangedAt: NOW - days * DAY_MS - 1 }), NOW, days),
        ).to.be.true;
      });
    }
    for (const status of ['new', 'shipped', 'declined'] as const) {
      it(`is never a stale promise when ${status}`, () => {
        expect(isStalePromise(item({ status, statusChangedAt: NOW - 400 * DAY_MS }), NOW, days)).to
          .be.false;
      });
    }
    it('follows the configured period', () => {
      const facts = item({ status: 'planned', statusChangedAt: NOW - 8 * DAY_MS });
      expect(isStalePromise(facts, NOW, 7)).to.be.true;
      expect(isStalePromise(facts, NOW, 30)).to.be.false;
    });
    it('is not stale once merged away', () => {
      const facts = item({
        status: 'planned',
        statusChangedAt: NOW - 99 * DAY_MS,
        _mergedInto: 'ACME-1',
      });
      expect(isStalePromise(facts, NOW, 30)).to.be.false;
    });
  });

  describe('When an item shipped', () => {
    // spec: "shipped items nobody was told about"
    it('needs follow-up until someone is told', () => {
      const shipped = item({ status: 'shipped', statusChangedAt: NOW - DAY_MS });
      expect(isShippedUnnotified(shipped)).to.be.true;
      expect(isShippedUnnotified({ ...shipped, notifiedAt: NOW, _announced: true })).to.be.false;
    });
    it('needs follow-up again when it shipped again after the last notification', () => {
      const reshipped = item({ status: 'shipped', statusChangedAt: NOW, notifiedAt: NOW - DAY_MS });
      expect(isShippedUnnotified(reshipped)).to.be.true;
    });
    it('tells by event order, also when the notification and the new shipping share a time', () => {
      const reshipped = item({ status: 'shipped', statusChangedAt: NOW, notifiedAt: NOW });
      expect(isShippedUnnotified(reshipped)).to.be.true;
    });
    it('is not about items in other statuses', () => {
      for (const status of ['new', 'planned', 'in-progress', 'declined'] as const) {
        expect(isShippedUnnotified(item({ status, statusChangedAt: NOW }))).to.be.false;
      }
    });
  });
});
