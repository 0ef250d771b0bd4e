/**
 * The roster NOTES_TAGS_PER_USER and NOTES_DEVICES_PER_USER are counted after
 * (commands/tag/roster.ts): an intent is appended only at the revision the count followed, and
 * intents older than the lease are forgotten (they landed or were abandoned).
 */
import { expect } from 'chai';
import { claimLeaseMs } from '../../commands/shared/lease.js';
import { RevisionMismatch } from '../../commands/shared/revision.js';
import {
  type NamedRosterEvent,
  namedRosterDecider,
  recentNamedIntents,
} from '../../commands/tag/index.js';
import { deciderSpec } from '../support/decider.js';

const first = { tagIds: ['t1', 't2'], deviceIds: ['d1'], at: 1_000 };
const intended: NamedRosterEvent = { type: 'NamedCreationIntended', data: first };

describe('Named roster decider', () => {
  const given = deciderSpec(namedRosterDecider);
  it('records an intent at the revision its count followed, and only there', () => {
    given([])
      .when({ type: 'IntendNamedCreation', data: { ...first, expectedRevision: -1 } })
      .then([intended]);
    const next = { tagIds: ['t3'], deviceIds: [], at: 2_000 };
    given([intended])
      .when({ type: 'IntendNamedCreation', data: { ...next, expectedRevision: -1 } })
      .thenThrows(RevisionMismatch);
    given([intended])
      .when({ type: 'IntendNamedCreation', data: { ...next, expectedRevision: 0 } })
      .then([{ type: 'NamedCreationIntended', data: next }]);
  });
  it('counts an intent of each kind while it is younger than the lease', () => {
    const { evolve, initialState } = namedRosterDecider;
    const state = evolve(initialState(), intended);
    expect(recentNamedIntents(state, 'tag', 1_001)).to.deep.equal(['t1', 't2']);
    expect(recentNamedIntents(state, 'device', 1_001)).to.deep.equal(['d1']);
    expect(recentNamedIntents(state, 'tag', 1_000 + claimLeaseMs)).to.deep.equal([]);
    const later = { tagIds: ['t3'], deviceIds: [], at: 1_000 + claimLeaseMs };
    const kept = evolve(state, { type: 'NamedCreationIntended', data: later });
    expect(kept.recent.tag).to.deep.equal({ t3: later.at });
    expect(kept.recent.device).to.deep.equal({});
  });
});
