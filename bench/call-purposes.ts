import type { CommandCalls } from './api-calls.js';

/**
 * What each GitHub call plangate makes is for, read from the flows, so the report can say which
 * calls a command could do without. Keyed by the names api-calls.ts gives calls.
 */
export const CALL_PURPOSE: Record<string, string> = {
  'GET /repos/{owner}/{repo}/collaborators/{username}/permission': "the commenter's permission (authorize)",
  'graphql query plangateThread':
    'the thread, with who last edited each comment: live plan record (a foreign edit voids it), earlier progress comment',
  'graphql query plangateLastEditor':
    'who last edited a comment read outside the thread listing (not on the usual paths)',
  'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions':
    'reaction on the command: 👀 on /plan, 🚀 on /approve; 👎 on a refusal, failure or abort',
  'GET /repos/{owner}/{repo}': 'default branch and its head (the plan’s base)',
  'POST /repos/{owner}/{repo}/issues/{issue_number}/comments':
    'a new comment: the plan, the progress comment or a refusal',
  'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}':
    'plan comment status (executing, done) and progress comment (per cycle, final)',
  'graphql query plangateApproval':
    'approval re-check right before the pull request: plan comment (body, editor) and issue title and body, in one read',
  'graphql query plangateIssueText': 'approval re-check of a run without a plan comment: issue title and body',
  'POST /repos/{owner}/{repo}/git/refs':
    '/cancel of a running plan: raise its cancel signal refs/plangate/cancel/<issue>/<plan> (the run reads it over git)',
  'GET /repos/{owner}/{repo}/pulls':
    'the open pull request for the branch, looked up only when GitHub answers that one exists (a re-run after a lost answer)',
  'POST /repos/{owner}/{repo}/pulls': 'open the pull request',
  'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers': 'ask the approver to review the pull request',
  'GET /repos/{owner}/{repo}/actions/runs/{run_id}':
    'lock taken: is the run holding it still going? (the lock itself is git traffic)',
};

/** One change to src/flows or src/github that would save /approve calls, and what it costs. */
export interface CallReduction {
  calls: string[];
  now: number;
  change: string;
  saves: number;
  tradeOff: string;
  /** Saves calls of every cycle rather than of the fixed part. */
  perCycle?: boolean;
}

const count = (calls: CommandCalls, name: string) => calls.calls.find((c) => c.name === name)?.count ?? 0;

/**
 * The changes that would bring /approve to the 10 + 1 per cycle, each with the calls it
 * removes as observed in this run's request log (a change whose calls were not made saves nothing).
 * `calls` is /approve with one cycle; `perCycle` the calls each further cycle adds, by name.
 */
export function approveReductions(calls: CommandCalls, perCycle: Readonly<Record<string, number>>): CallReduction[] {
  // Calls made once per cycle are listed on their own: the fixed part is what is left.
  const c = (name: string) => count(calls, name) - (perCycle[name] ?? 0);
  const rechecks = c('GET /repos/{owner}/{repo}/issues/{issue_number}');
  const reductions: CallReduction[] = [
    {
      calls: ['GET /repos/{owner}/{repo}/git/commits/{commit_sha}', 'POST /repos/{owner}/{repo}/git/commits'],
      now: c('GET /repos/{owner}/{repo}/git/commits/{commit_sha}') + c('POST /repos/{owner}/{repo}/git/commits'),
      change:
        'src/github/lock.ts: point the lock ref at the base commit itself instead of a lock commit, and name the holder run in the progress comment the run posts anyway (its checkpoint already carries runId)',
      saves: Math.min(
        2,
        c('GET /repos/{owner}/{repo}/git/commits/{commit_sha}') + c('POST /repos/{owner}/{repo}/git/commits'),
      ),
      tradeOff: 'a takeover reads the holder from the progress comment instead of the lock commit message',
    },
    {
      calls: [
        'GET /repos/{owner}/{repo}/issues/comments/{comment_id}',
        'GET /repos/{owner}/{repo}/issues/{issue_number}',
      ],
      now:
        c('GET /repos/{owner}/{repo}/issues/comments/{comment_id}') +
        c('GET /repos/{owner}/{repo}/issues/{issue_number}'),
      change:
        'src/flows/execution.ts recheckApproval: read the plan comment body and the issue title/body in one GraphQL query (node(id) + repository.issue) instead of two REST reads, at each of its two check points',
      saves: Math.min(rechecks, c('GET /repos/{owner}/{repo}/issues/comments/{comment_id}')),
      tradeOff: 'none beyond a second GraphQL document to maintain',
    },
    {
      calls: ['GET /repos/{owner}/{repo}/issues/{issue_number}/comments', 'graphql query plangateLastEditor'],
      now: c('GET /repos/{owner}/{repo}/issues/{issue_number}/comments') + c('graphql query plangateLastEditor'),
      change:
        'src/flows/live-record.ts + src/github/thread.ts: list the thread with GraphQL (comments with body, author, editor, lastEditedAt) so the editor check needs no second call',
      saves: Math.min(1, c('graphql query plangateLastEditor')),
      tradeOff: 'the thread listing moves from REST to GraphQL (paging by cursor)',
    },
    {
      calls: ['GET /repos/{owner}/{repo}/pulls'],
      now: c('GET /repos/{owner}/{repo}/pulls'),
      change:
        'src/github/thread.ts createPullRequest: create first and look the pull request up only when GitHub answers 422 "A pull request already exists" (the checkpoint already remembers a PR this plan opened)',
      saves: c('GET /repos/{owner}/{repo}/pulls'),
      tradeOff: 'none on the normal path; one extra call on a re-run after a lost answer',
    },
    {
      calls: ['PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}'],
      now: c('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}'),
      change:
        'src/flows/execution.ts: drop the checkpoint save after the last cycle (saveProgress(final) before the PR); the final save right after the PR carries the same checkpoint, and a failed PR is saved by the catch',
      // Four fixed edits while that save is made (executing, that checkpoint, final progress, done); three without it.
      saves: c('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}') >= 4 ? 1 : 0,
      tradeOff: 'a job killed between the last cycle and the PR re-runs the finishing planner on resume',
    },
    {
      calls: ['POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'],
      now: c('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'),
      change:
        'src/flows/execution.ts: drop the closing 🎉/👎 reaction; the progress comment and the pull request already say how it ended',
      saves: Math.min(1, Math.max(0, c('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions') - 1)),
      tradeOff: 'no at-a-glance outcome on the /approve comment',
    },
    {
      calls: ['POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'],
      now: c('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'),
      change:
        'src/flows/approve.ts: drop the opening 🚀 reaction; the progress comment, posted seconds later, acknowledges the command',
      saves: Math.min(1, c('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions')),
      tradeOff: 'the /approve comment shows nothing until the progress comment appears',
    },
    {
      calls: [
        'GET /repos/{owner}/{repo}/issues/comments/{comment_id}',
        'GET /repos/{owner}/{repo}/issues/{issue_number}',
      ],
      now:
        c('GET /repos/{owner}/{repo}/issues/comments/{comment_id}') +
        c('GET /repos/{owner}/{repo}/issues/{issue_number}'),
      change:
        'src/flows/execution.ts: re-check the approval once, before the pull request, not also before the first push',
      saves: rechecks >= 2 ? 1 : 0,
      tradeOff: 'work for a plan edited mid-run is pushed to its branch (still never proposed as a PR)',
    },
    {
      calls: ['PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}'],
      now: c('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}'),
      change:
        'src/flows/execution.ts: leave the plan comment at "approved" until the end (one PATCH to done) and let the lock plus the progress comment answer "already executing"',
      saves: 1,
      tradeOff: 'the plan comment shows "approved" rather than "executing" while the run goes on',
    },
  ];
  const releaseChecks = c('GET /repos/{owner}/{repo}/git/ref/{ref}');
  if (releaseChecks > 0) {
    reductions.push({
      calls: ['GET /repos/{owner}/{repo}/git/ref/{ref}'],
      now: releaseChecks,
      change:
        'src/github/lock.ts release: delete the lock ref without reading it first; a run only loses its lock to a takeover after the Actions API reports it finished, so a running holder still owns it',
      saves: releaseChecks,
      tradeOff: 'a run wrongly reported finished while still running would free its successor’s lock',
    });
  }
  const cancelChecks = perCycle['GET /repos/{owner}/{repo}/issues/comments/{comment_id}'] ?? 0;
  if (cancelChecks > 0) {
    reductions.push({
      calls: ['GET /repos/{owner}/{repo}/issues/comments/{comment_id}'],
      now: cancelChecks,
      change:
        'src/flows/execution.ts stopIfCancelled: look for /cancel at most once a minute instead of after every cycle (real cycles take minutes of model time, so a cancel is seen as soon; scripted ones take milliseconds)',
      saves: cancelChecks,
      tradeOff: 'a /cancel can take up to a minute longer to stop a run of very short cycles',
      perCycle: true,
    });
  }
  return reductions.filter((r) => r.saves > 0);
}
