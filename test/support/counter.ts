/** A tiny aggregate for testing the machinery (handler, engine) without a feature's rules. */
import type { Decider } from '../../commands/shared/decider.js';
import { FailedPrecondition } from '../../commands/shared/errors.js';
import type { Projector } from '../../projections/shared/projector.js';
import { guardedUpdate } from '../../projections/shared/guard.js';

export type CounterEvent = { type: 'CounterIncremented'; data: { by: number } };
export type CounterCommand = { type: 'Increment'; by: number } | { type: 'Touch' };
export type CounterState = { total: number };

export const counter: Decider<CounterState, CounterCommand, CounterEvent> = {
  initialState: () => ({ total: 0 }),
  evolve: (state, event) => ({ total: state.total + event.data.by }),
  decide(command, state) {
    switch (command.type) {
      case 'Increment':
        if (state.total + command.by > 1_000_000) throw new FailedPrecondition('too big');
        return [{ type: 'CounterIncremented', data: { by: command.by } }];
      case 'Touch':
        return [];
      default: {
        const _exhaustive: never = command;
        return _exhaustive;
      }
    }
  },
};

/** Projects every counter stream into `counters` {_id: streamId, total, events}. */
export function counterProjector(name = 'counters', applied: string[] = []): Projector {
  return {
    name,
    collections: [name],
    filter: { eventTypes: ['CounterIncremented'] },
    async apply(event, store) {
      applied.push(event.id);
      const data = event.data as { by: number };
      await guardedUpdate(
        store.collection(name),
        event.streamId,
        event.position,
        { $inc: { total: data.by, events: 1 } },
        { upsert: true },
      );
    },
  };
}
