import { defaultPolicy, initialSnapshot } from '../machine/planner-executor.js';
import { executorOnlySnapshot } from '../machine/executor-only.js';
import type { CommandOf, FlowResult, RunContext } from '../run/run-context.js';
import { stripHidden } from '../text/untrusted.js';
import { issueObjective } from '../text/issue-objective.js';
import { clip } from '../text/limits.js';
import { refuseIfEdited } from '../run/command-comment.js';
import { executeWithoutPlanner } from '../run/executor-only-run.js';
import { resolveBase } from '../run/work-base.js';
import { failUnlessKeys, refuse, refuseUnlessRole } from '../run/refuse.js';
import { planInThread } from '../run/review-context.js';

/**
 * `/plan`: the read-only planner studies the repository at the base commit and plangate posts what
 * it staged. Under the `executor-only` policy there is no planner: the executor works the objective
 * directly, and the pull request still carries the run's history.
 */
const maxObjectiveChars = 20_000;

export async function planFlow(ctx: RunContext, command: CommandOf<'plan'>): Promise<FlowResult> {
  const { settings, thread } = ctx;
  const issue = command.thread.number;
  const allowed = await refuseUnlessRole(thread, command, '/plan', settings.triggerPermission, 'trigger-permission');
  if ('refused' in allowed) return allowed.refused;
  const executorOnly = settings.policy === 'executor-only';
  const noKey = await failUnlessKeys(ctx, command, '/plan', [executorOnly ? 'executor' : 'planner'], allowed.role);
  if (noKey) return noKey;
  const comments = await thread.listComments(issue);
  const edited = await refuseIfEdited(ctx, command, '/plan', comments);
  if (edited) return edited;
  // A model reads only what GitHub shows of the text. A bare /plan takes the issue as its objective,
  // fenced as untrusted data: anyone may have written it. A very long text is cut, with a notice saying so.
  const objective = command.objective.trim()
    ? clip(stripHidden(command.objective).trim(), maxObjectiveChars)
    : (issueObjective(command.thread, maxObjectiveChars) ?? '');
  if (!objective) {
    return refuse(
      thread,
      command,
      '/plan',
      'there is no objective.',
      'Write it after the command: `/plan <what should be done>`.',
    );
  }

  await thread.react(command.commentId, 'eyes', command.origin);
  const base = await resolveBase(ctx, command);
  if ('refusal' in base) return refuse(thread, command, '/plan', base.refusal, base.fix);
  const policy = { ...defaultPolicy, maxIterations: settings.maxIterations };
  if (!executorOnly) {
    const snapshot = initialSnapshot(objective, policy);
    const request = { source: command, requestedBy: command.author, snapshot, base, comments };
    return planInThread(ctx, request, new Map([[command.author, allowed.role]]));
  }

  await thread.react(command.commentId, 'rocket', command.origin).catch(() => undefined);
  return executeWithoutPlanner(ctx, {
    source: command,
    requestedBy: command.author,
    snapshot: executorOnlySnapshot(objective, policy),
    base,
    comments,
  });
}
