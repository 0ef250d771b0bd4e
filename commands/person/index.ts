import type { Decider } from '../shared/decider.js';
import { decidePerson, type PersonCommand } from './decide.js';
import type { PersonEvent } from './events.js';
import { evolvePerson, initialPersonState, type PersonState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './state.js';

export const personDecider: Decider<PersonState, PersonCommand, PersonEvent> = {
  initialState: initialPersonState,
  evolve: evolvePerson,
  decide: decidePerson,
};

export const personStreamId = (personId: string): string => `person-${personId}`;
