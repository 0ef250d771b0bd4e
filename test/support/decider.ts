/**
 * Decider specifications in the given / when / then shape:
 *
 *   const given = deciderSpec(itemDecider);
 *   given([captured]).when(changeStatus('planned')).then([statusChanged('new', 'planned')]);
 *   given([]).when(changeStatus('planned')).thenThrows(NotFound);
 *
 * Events are folded with the decider's own `evolve`, so a spec also exercises the fold.
 */
import { expect } from 'chai';
import type { Decider, DomainEvent } from '../../commands/shared/decider.js';

type ErrorClass = abstract new (...args: never[]) => Error;

export type DeciderSpec<State, Command, Event extends DomainEvent> = (events: readonly Event[]) => {
  when(command: Command): {
    then(expected: readonly Event[]): void;
    thenThrows(errorClass: ErrorClass, message?: RegExp): void;
    /** the state after the decided events, for checks the events alone cannot show */
    thenState(check: (state: State) => void): void;
  };
};

export function deciderSpec<State, Command, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
): DeciderSpec<State, Command, Event> {
  return (events) => {
    const state = events.reduce(decider.evolve, decider.initialState());
    return {
      when(command) {
        return {
          // biome-ignore lint/suspicious/noThenProperty: the given/when/then vocabulary is the point; never awaited
          then(expected) {
            expect(decider.decide(command, state)).to.deep.equal(expected);
          },
          thenThrows(errorClass, message) {
            let thrown: unknown;
            try {
              decider.decide(command, state);
            } catch (error) {
              thrown = error;
            }
            expect(thrown, 'expected the command to be refused').to.be.instanceOf(errorClass);
            if (message) expect((thrown as Error).message).to.match(message);
          },
          thenState(check) {
            check(decider.decide(command, state).reduce(decider.evolve, state));
          },
        };
      },
    };
  };
}
