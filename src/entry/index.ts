import { reportIgnored } from './ignored-report.js';
import { triageEvent } from './triage.js';

// The action's entry point. Most events a plangate workflow sees are comments that are no command:
// those are answered here, from the payload alone, before the action and its dependencies load.
// Everything else goes to main.ts, with the payload triage parsed, and main.ts owns error handling
// and the step's failure.
const triage = triageEvent();
if (triage.kind !== 'ignore' || !reportIgnored(triage.reason)) {
  const { run } = await import('./main.js');
  await run(triage);
}
