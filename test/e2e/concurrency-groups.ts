/**
 * GitHub Actions' concurrency groups as GitHub documents them, for proving what a workflow's
 * `concurrency:` does to a sequence of runs without a runner: a group holds at most one running and
 * one pending run; a run entering a group that has a running run becomes the pending one, and the
 * run it replaces is cancelled (with `cancel-in-progress: false`, the running run is never touched);
 * when the running run ends, the pending one starts. Group names compare without case.
 */
export class ConcurrencyGroups {
  private readonly running = new Map<string, string>();
  private readonly pending = new Map<string, string>();
  /** Runs in the order they started. */
  readonly started: string[] = [];
  /** Runs GitHub cancelled because a newer run took their pending place. */
  readonly cancelled: string[] = [];
  /** For each cancelled run, the run that took its place. */
  readonly replacedBy = new Map<string, string>();

  /** A new run of a job whose concurrency group is `group`: started at once or left pending. */
  enter(run: string, group: string): 'started' | 'pending' {
    const key = group.toLowerCase();
    if (!this.running.has(key)) {
      this.running.set(key, run);
      this.started.push(run);
      return 'started';
    }
    const replaced = this.pending.get(key);
    if (replaced !== undefined) {
      this.cancelled.push(replaced);
      this.replacedBy.set(replaced, run);
    }
    this.pending.set(key, run);
    return 'pending';
  }

  /** `run` finished; answers the run that then started in its group, if any. */
  finish(run: string): string | undefined {
    for (const [key, holder] of this.running) {
      if (holder !== run) continue;
      this.running.delete(key);
      const next = this.pending.get(key);
      if (next === undefined) return undefined;
      this.pending.delete(key);
      this.running.set(key, next);
      this.started.push(next);
      return next;
    }
    throw new Error(`run ${run} is not running`);
  }

  /** The running runs, oldest start first. */
  runningRuns(): string[] {
    const now = new Set(this.running.values());
    return this.started.filter((run) => now.has(run));
  }

  /** The run waiting in `group`, if any. */
  pendingIn(group: string): string | undefined {
    return this.pending.get(group.toLowerCase());
  }

  clone(): ConcurrencyGroups {
    const copy = new ConcurrencyGroups();
    for (const [key, run] of this.running) copy.running.set(key, run);
    for (const [key, run] of this.pending) copy.pending.set(key, run);
    copy.started.push(...this.started);
    copy.cancelled.push(...this.cancelled);
    for (const [run, by] of this.replacedBy) copy.replacedBy.set(run, by);
    return copy;
  }
}
