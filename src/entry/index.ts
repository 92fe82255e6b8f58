import { reportEarlyFailure } from './early-failure.js';
import { closeInheritedDescriptors } from './inherited-descriptors.js';
import { reportIgnored } from './ignored-report.js';
import { payloadProblem, runnerProblem } from './runner-check.js';
import { triageEvent } from './triage.js';

// The action's entry point. Most events a plangate workflow sees are comments that are no command:
// those are answered here, from the payload alone, before the action and its dependencies load. So
// is a job that cannot run at all (a broken runner environment, an event file that is no JSON),
// with main.ts's own words. Everything else goes to main.ts with the payload triage parsed (the event
// file is read once), and main.ts owns error handling and the step's failure.

// First of all: no process the action starts may inherit a descriptor its starter left open.
closeInheritedDescriptors();
const triage = triageEvent();
const answered = (): boolean => {
  if (triage.kind === 'ignore') return reportIgnored(triage.reason);
  const broken = runnerProblem(process.env);
  if (broken !== undefined) return reportEarlyFailure({ message: broken, redactInputs: false });
  // A payload triage parsed is JSON; only one it did not read is checked here.
  const unreadable = triage.event ? undefined : payloadProblem(process.env);
  return unreadable !== undefined && reportEarlyFailure({ message: unreadable, redactInputs: true });
};
if (!answered()) {
  const { run } = await import('./main.js');
  await run(triage);
}
