import { currentAgent, isTerminal, pendingFields, reduce } from '../machine/reducer.js';
import type { MachineDefinition, MachineEvent, Snapshot } from '../machine/types.js';

/**
 * Holds the current snapshot of one run and feeds events to the pure reducer. The only mutable
 * piece of the loop, kept tiny so everything it decides is the reducer's decision.
 */
export class RunState {
  constructor(
    readonly definition: MachineDefinition,
    private current: Snapshot,
  ) {}

  get snapshot(): Snapshot {
    return this.current;
  }

  dispatch(event: MachineEvent): Snapshot {
    this.current = reduce(this.definition, this.current, event);
    return this.current;
  }

  get pending() {
    return pendingFields(this.definition, this.current);
  }

  get agent() {
    return currentAgent(this.definition, this.current);
  }

  get finished(): boolean {
    return isTerminal(this.definition, this.current);
  }
}
