/**
 * A decider is three pure functions over one aggregate: no clock, no I/O, no ids invented inside.
 * Time, ids and lookups arrive in the command. See test helpers in test/support/decider.ts.
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface Decider<State, Command, Event extends DomainEvent> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  /** returns the events that follow, possibly none; throws a DomainError on a rule violation */
  decide(command: Command, state: State): Event[];
}
