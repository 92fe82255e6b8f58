import type { Plan } from '../machine/fields.js';
import type { Session } from './session.js';

/**
 * Cycles one executor session carries before the next cycle opens a compacted one.
 *
 * Every request re-sends its whole session. Kept for the whole run, n cycles re-send about n²/2
 * cycles' worth of tool transcripts, each at the provider's cached price (10–50 % of the uncached
 * one), and the re-sent part comes to dominate what a cycle costs. Bounded to three cycles, a request
 * re-sends at most the two cycles before its own, so the cost per cycle stays flat however long the
 * run: a compacted session starts from the same frozen prefix and an opening that repeats the previous
 * opening's bytes up to its history, which holds every earlier cycle's recorded result (the evidence
 * the executor needs, in the form the planner gets it).
 *
 * Why three: a plan of up to three steps, the common case, runs in one session untouched (the
 * executor keeps its own record of what it read, changed and ran, and every request extends the last
 * in the provider's cache); fewer would give that up in exchange for little, and many more would let
 * the re-sent transcript grow again. docs/architecture.md ("Sessions and the prompt cache") has the
 * measured figures behind the choice.
 */
export const EXECUTOR_WINDOW_CYCLES = 3;

/** The executor's sessions of one run: the current one while it has room, a new one after that. */
export class ExecutorSessions {
  private current: Session | undefined;
  private cycles = 0;
  private shown: Plan | undefined;

  constructor(
    private readonly open: () => Session,
    private readonly window: number = EXECUTOR_WINDOW_CYCLES,
  ) {}

  /**
   * The session the cycle that serves `plan` runs in: `fresh` when it is new, so the cycle's message
   * must open it; `shown`, the plan the session was last shown (a continuing message repeats the plan
   * only when a replan changed it).
   */
  next(plan: Plan | undefined): { session: Session; fresh: boolean; shown: Plan | undefined } {
    const fresh = this.current === undefined || this.cycles >= this.window;
    if (fresh) {
      this.current = this.open();
      this.cycles = 0;
      this.shown = undefined;
    }
    this.cycles += 1;
    const shown = this.shown;
    this.shown = plan;
    return { session: this.current as Session, fresh, shown };
  }
}
