import type { Snapshot } from '../machine/types.js';
import { renderCostComparison } from '../render/checks.js';
import { renderDiagram } from '../render/diagram.js';
import { renderSummaryDetails } from '../render/summary-details.js';
import { renderUsageTable } from '../render/usage-table.js';
import { renderReviewThreads } from '../render/review-threads.js';
import type { ExecutionRun } from './execution-run.js';
import { plannedActual } from './contract-report.js';
import { renderPlannedActual } from '../render/planned-actual.js';
import type { RunEnding } from './run-ending.js';

/**
 * The job summary of an execution: how it ended, the pull request, the machine's path, usage
 * (against the approved estimate, when there was one) and the run's context, on the job's page.
 */
export async function writeExecutionSummary(run: ExecutionRun, final: Snapshot, ended: RunEnding): Promise<void> {
  const { record, pullRequest } = run;
  const { notice } = run.execution;
  const usage = run.team.usage();
  const contract = await plannedActual(run, final);
  await run.ctx.writeSummary(
    [
      `### plangate: plan ${record.planId} ${ended.outcome === 'aborted' ? 'aborted' : 'done'}`,
      '',
      ...(notice ? [`> ${notice}`, ''] : []),
      pullRequest
        ? `[Pull request #${pullRequest.number}](${pullRequest.url})`
        : 'No changes were made, so no pull request proposes any.',
      ended.reason ? `\nReason: ${ended.reason}` : '',
      '',
      ...(record.reviewThreads?.length ? [renderReviewThreads(record.reviewThreads, '#### Review threads'), ''] : []),
      ...(contract ? [renderPlannedActual(contract).replace(/^## /gm, '#### '), ''] : []),
      renderDiagram(final),
      '',
      renderUsageTable(usage),
      '',
      ...(record.checks ? [renderCostComparison(record.checks.estimate, usage), ''] : []),
      renderSummaryDetails(final.context),
    ].join('\n'),
  );
}
