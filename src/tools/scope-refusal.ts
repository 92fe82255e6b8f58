import { inScope, type ApprovedScope } from '../scope/approved-scope.js';
import { isCommandAllowed } from './command-policy.js';
import { ToolError } from './tool-error.js';

/**
 * Where the executor's tools hold the approved scope: a write outside its paths and a command outside
 * its commands are refused before anything happens, with a result that says what is in scope and
 * how to ask for more (an amendment, through a re-plan).
 */

const howToWiden =
  'Finish what is in scope, then set outcome `replan` and say in your result what more the work needs and why: the planner revises the plan, and a maintainer approves the wider scope as an amendment before the run goes on.';

/** Refuses a write to `path` that the scope does not name. */
export function refuseOutsidePaths(
  path: string,
  scope: Pick<ApprovedScope, 'paths'> | undefined,
  whose = "this run's approved scope",
): void {
  if (!scope || inScope(path, scope)) return;
  const allowed = scope.paths.length === 0 ? 'no file' : scope.paths.join(', ');
  throw new ToolError(
    `Refused: ${path} is outside ${whose}, which allows changes to ${allowed}. Nothing was written. ${howToWiden}`,
  );
}

/** Refuses a command (already allowed by `allowed-commands`) that the scope does not name. */
export function refuseOutsideCommands(
  argv: readonly string[],
  command: string,
  scope: Pick<ApprovedScope, 'commands'> | undefined,
): void {
  if (!scope || isCommandAllowed(argv, scope.commands)) return;
  const allowed = scope.commands.length === 0 ? 'no command' : scope.commands.join(', ');
  throw new ToolError(
    `Refused: ${command} is not among the commands this run's approval allows (${allowed}). Nothing was run. ${howToWiden}`,
  );
}
