import { expect, it } from 'vitest';
import type { StagedFields } from '../../src/machine/fields.js';
import { reduce } from '../../src/machine/reducer.js';
import type { MachineDefinition, MachineEvent, Snapshot, StateName } from '../../src/machine/types.js';

/** The events the hosts feed the machines, built as the reducer tests write them. */
export const planner = (fields: StagedFields): MachineEvent => ({ type: 'stage', agent: 'planner', fields });
export const executor = (fields: StagedFields): MachineEvent => ({ type: 'stage', agent: 'executor', fields });
export const exchange = (agent: 'planner' | 'executor'): MachineEvent => ({ type: 'exchange', agent });
export const hostAbort = (reason: string): MachineEvent => ({ type: 'abort', reason });
export const answer = (text: string): MachineEvent => ({ type: 'answer', text });

/** Freezes `value` and everything in it, so a write anywhere throws (the tests run in strict mode). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * The reducer's purity and resumability over `fullRun`, a whole run of `machine` from `start()` to
 * done (whose trail, when `trail` is given, enters those states): it never mutates what it is given,
 * resumes identically from a JSON round-trip at every point, and is deterministic. Call inside a
 * `describe`.
 */
export function itIsPureAndResumable(
  machine: MachineDefinition,
  start: () => Snapshot,
  fullRun: MachineEvent[],
  trail?: StateName[],
): void {
  const run = (from: Snapshot, events: MachineEvent[]) =>
    events.reduce((snapshot, event) => reduce(machine, snapshot, event), from);

  it('never mutates the snapshot or the event it is given', () => {
    let snapshot = start();
    for (const event of fullRun) {
      const copy = structuredClone(snapshot);
      // Frozen inputs make any write throw in strict-mode modules.
      const next = reduce(machine, deepFreeze(snapshot), deepFreeze(structuredClone(event)));
      expect(snapshot).toStrictEqual(copy);
      snapshot = next;
    }
    expect(snapshot.state).toBe('done');
    if (trail) expect(snapshot.trail.map((t) => t.to)).toEqual(trail);
  });

  it('resumes identically from a JSON round-trip at every point of a run', () => {
    const direct = run(start(), fullRun);
    for (let cut = 0; cut <= fullRun.length; cut += 1) {
      const paused = run(start(), fullRun.slice(0, cut));
      const revived = JSON.parse(JSON.stringify(paused)) as Snapshot;
      expect(revived, `cut at ${cut}`).toStrictEqual(paused);
      expect(run(revived, fullRun.slice(cut)), `cut at ${cut}`).toStrictEqual(direct);
    }
  });

  it('is deterministic', () => {
    expect(run(start(), fullRun)).toStrictEqual(run(start(), fullRun));
  });
}
