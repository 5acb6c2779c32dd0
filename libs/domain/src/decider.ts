// Pure: what a decision needs from outside (the time, ids, what another stream said) comes in the command.

export type StoredEvent = { readonly type: string; readonly data: unknown; readonly recordedAt: string };

export type DomainEvent = { type: string; data: unknown };

export type Decider<State, Command, Event extends DomainEvent> = {
  readonly streamOf: (id: string) => string;
  readonly initialState: State;
  readonly evolve: (state: State, event: Event) => State;
  /** Many events at once, with the same result as `evolve` one by one: for a stream where that is much cheaper. */
  readonly fold?: (state: State, events: readonly Event[]) => State;
  /** Refuses by throwing a DomainError. */
  readonly decide: (command: Command, state: State) => readonly Event[];
  /** For streams that need more than type and data (when it was recorded). */
  readonly read?: (stored: StoredEvent) => Event;
  readonly stateInLastEvent?: boolean;
};

export const foldEvents = <State, Event extends DomainEvent>(
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  events: readonly Event[],
): State => events.reduce(decider.evolve, decider.initialState);
