import type { RecordedRequest, Reply } from '../fakes/scripted-model.js';

/**
 * Scripting the executor sessions of plan steps that run together: their requests arrive in any
 * order, so each is answered from its own step's script, by the turn it is at.
 */

/** The plan step a step session serves, from its opening, and how many answers it has had. */
export function stepOf(request: RecordedRequest): { step: number; turn: number; rerun: boolean } {
  const opening = request.messages.find((m) => m.role === 'user');
  const text = typeof opening?.content === 'string' ? opening.content : '';
  const step = Number(/## Step (\d+) of the plan/.exec(text)?.[1] ?? 0);
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  return { step, turn, rerun: text.includes('Your step ran before beside other steps') };
}

/**
 * An executor script for step sessions whose requests arrive in any order: each request is answered
 * from its own step's script (`rerun` for a step's second session), by the turn it is at.
 */
export function perStep(scripts: Record<number, Reply[]>, rerun: Record<number, Reply[]> = {}): Reply[] {
  const route: Reply = (request) => {
    const { step, turn, rerun: again } = stepOf(request);
    const reply = (again ? rerun : scripts)[step]?.[turn];
    if (reply === undefined)
      throw new Error(`no scripted reply for step ${step}, turn ${turn}${again ? ' (run again)' : ''}`);
    return typeof reply === 'function' ? reply(request) : reply;
  };
  const total = [...Object.values(scripts), ...Object.values(rerun)].reduce((n, s) => n + s.length, 0);
  return Array.from({ length: total }, () => route);
}
