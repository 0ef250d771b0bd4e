/**
 * given([...events]).when(command).thenEvents([...events]) / .thenThrows(ErrorClass, /message/)
 * for the notes service's deciders (emmett style). Pure: no stores involved.
 */
import { expect } from 'chai';
import type { Decider, DomainEvent } from '../../commands/shared/decider.js';

type ErrorClass = abstract new (...args: never[]) => Error;

export function deciderSpec<State, Command, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
) {
  return {
    given(events: Event[] = []) {
      const state = events.reduce(decider.evolve, decider.initialState());
      return {
        state,
        when(command: Command) {
          const run = () => decider.decide(command, state);
          return {
            thenEvents(expected: Event[]) {
              expect(run()).to.deep.equal(expected);
            },
            thenNothing() {
              expect(run()).to.deep.equal([]);
            },
            thenThrows(errorClass: ErrorClass, message?: RegExp) {
              let thrown: unknown;
              try {
                run();
              } catch (error) {
                thrown = error;
              }
              expect(thrown, 'expected the decider to throw').to.be.instanceOf(errorClass);
              if (message) expect((thrown as Error).message).to.match(message);
            },
          };
        },
      };
    },
  };
}
