/**
 * The deciders the notes actions serialise concurrent writes through: name claims, the tag
 * tree's intents and request-key claims. Given events, when a command, then events or a refusal.
 */
import { expect } from 'chai';
import { requestClaimDecider } from '../../commands/note/index.js';
import { Conflict } from '../../commands/shared/errors.js';
import { RevisionMismatch } from '../../commands/shared/revision.js';
import { claimLeaseMs } from '../../commands/shared/lease.js';
import { REQUEST_HASH_SCHEME } from '../../commands/shared/request-hash.js';
import {
  claimStatus,
  type NameClaimEvent,
  nameClaimDecider,
  pendingIntent,
  type TagTreeEvent,
  tagTreeDecider,
} from '../../commands/tag/index.js';
import { deciderSpec } from '../support/decider.js';

const claim = { holderId: 'a', holderRevision: 3, at: 1_000 };
const claimed: NameClaimEvent = { type: 'NoteNameClaimed', data: claim };

describe('Name claim decider', () => {
  const given = deciderSpec(nameClaimDecider);
  it('claims a name at the revision the claimant found it free at, and only there', () => {
    given([])
      .when({ type: 'ClaimName', data: { ...claim, expectedRevision: -1 } })
      .then([claimed]);
    const other = { holderId: 'b', holderRevision: -1, at: 2_000 };
    given([claimed])
      .when({ type: 'ClaimName', data: { ...other, expectedRevision: -1 } })
      .thenThrows(RevisionMismatch);
    given([claimed])
      .when({ type: 'ClaimName', data: { ...other, expectedRevision: 0 } })
      .then([{ type: 'NoteNameClaimed', data: other }]);
  });
  it('changes nothing for the same claim again (a second creator of the same new tag)', () => {
    given([claimed])
      .when({ type: 'ClaimName', data: { ...claim, expectedRevision: -1 } })
      .then([]);
  });
  it('holds while the holder has the name, or while its change may still land', () => {
    expect(claimStatus(claim, { revision: 9, hasName: true }, 1e9)).to.equal('held');
    expect(claimStatus(claim, { revision: 3, hasName: false }, 1_001)).to.equal('pending');
    // refused, overtaken (its stream moved on) or abandoned (older than the lease)
    expect(claimStatus(claim, { revision: 4, hasName: false }, 1_001)).to.equal('lapsed');
    const late = 1_000 + claimLeaseMs;
    expect(claimStatus(claim, { revision: 3, hasName: false }, late)).to.equal('lapsed');
  });
});

describe('Tag tree decider', () => {
  const given = deciderSpec(tagTreeDecider);
  const intent = { tagId: 'p', tagRevision: 2, at: 1_000, parentId: 'q', deleted: false };
  const intended: TagTreeEvent = { type: 'NoteTagTreeChangeIntended', data: intent };
  it('orders an intent only after the tree revision its lookups followed', () => {
    const intend = (expectedRevision: number) => ({
      type: 'IntendTreeChange' as const,
      data: { ...intent, expectedRevision },
    });
    given([]).when(intend(-1)).then([intended]);
    given([intended]).when(intend(-1)).thenThrows(RevisionMismatch);
  });
  it('counts an intent while its tag is at its revision and it is recent', () => {
    const state = [intended].reduce(tagTreeDecider.evolve, tagTreeDecider.initialState());
    expect(pendingIntent(state, 'p', 2, 1_500)).to.deep.equal(intent);
    expect(pendingIntent(state, 'p', 3, 1_500), 'landed or overtaken').to.equal(null);
    expect(pendingIntent(state, 'p', 2, 1_000 + claimLeaseMs), 'abandoned').to.equal(null);
    const later: TagTreeEvent = {
      type: 'NoteTagTreeChangeIntended',
      data: { ...intent, tagId: 'r', at: 2_000 + claimLeaseMs },
    };
    const kept = tagTreeDecider.evolve(state, later);
    expect(Object.keys(kept.intents), 'older intents are dropped').to.deep.equal(['r']);
  });
});

describe('Request key claim decider', () => {
  const given = deciderSpec(requestClaimDecider);
  const claimKey = (requestHash: string) => ({
    type: 'ClaimRequestKey' as const,
    data: { requestHash },
  });
  const [h1, h2] = [`${REQUEST_HASH_SCHEME}one`, `${REQUEST_HASH_SCHEME}two`];
  const first = { type: 'NoteRequestKeyClaimed' as const, data: { requestHash: h1 } };
  it('lets the first request of a key and its retries through, and refuses another', () => {
    given([]).when(claimKey(h1)).then([first]);
    given([first]).when(claimKey(h1)).then([]);
    given([first])
      .when(claimKey(h2))
      .thenThrows(Conflict, /Idempotency-Key was already used for a different request/);
  });

  it('lets a retry through whose key was claimed before an upgrade (a hash of another scheme)', () => {
    const legacy = { type: 'NoteRequestKeyClaimed' as const, data: { requestHash: 'oldHash' } };
    given([legacy]).when(claimKey(h2)).then([]);
  });
});
