import { clip, fitBody } from '../text/limits.js';
import { code } from '../text/markdown.js';
import { renderObjective } from './plan-comment.js';
import type { RunView } from './run-view.js';

/**
 * The body of the draft pull request opened as an execution starts, before its first model request:
 * opening it then proves that plangate may, so a missing permission or setting costs no executor
 * token. It says the run is under way and where to follow it; the run fills it in when it ends.
 */

const objectiveMax = 8_000;

export function renderDraftPullRequestBody(view: RunView): string {
  const closing = view.isPullRequest ? `Follows up #${view.issue}.` : `Closes #${view.issue}`;
  const job = view.runUrl ? ` ([job](${view.runUrl}))` : '';
  return fitBody(
    [
      closing,
      '',
      `Plan ${code(view.planId)}, asked by @${view.requestedBy}, approved by @${view.approvedBy}${job}.`,
      '',
      `> [!NOTE]\n> plangate is carrying out this plan. This pull request stays a draft while it works; each cycle is reported on #${view.issue}. When the run ends, this body shows the plan, every cycle, the summary and the cost.`,
      '',
      '## Objective',
      '',
      renderObjective(clip(view.snapshot.context.objective, objectiveMax)),
      '',
      `<!-- plangate:pr ${view.planId} -->`,
    ].join('\n'),
  );
}
