import type { Comment } from '../github/thread.js';
import { decodeRecord, hashPlan, hasRecordMarker, sealIsValid } from '../record/plan-record.js';
import { code } from '../text/markdown.js';
import type { RunContext } from './run-context.js';

/**
 * Why a thread shows a plan that plangate says is not there: plangate believes plan comments only
 * by `bot-login`, so when its token posts as another account (a GitHub App's bot, a personal access
 * token's user, an instance whose Actions bot has another login) every plan it posts is ignored as
 * someone else's. The first plan comment on the thread that plangate can prove it made (signed with
 * this repository's record key, for this repository and this issue) names the account it posts as.
 * Nothing is trusted because of it: the refusal only says which setting to fix. The first such
 * comment counts, not the newest, so a copy posted after it by someone else is never the one named.
 */
export function foreignPlanRefusal(
  ctx: Pick<RunContext, 'settings' | 'recordKey'>,
  comments: readonly Comment[],
  issue: number,
): { refusal: string; fix: string } | undefined {
  const { botLogin, runner } = ctx.settings;
  if (!ctx.recordKey) return undefined;
  const repository = `${runner.owner}/${runner.repo}`;
  for (const comment of comments) {
    if (comment.author === botLogin || !hasRecordMarker(comment.body)) continue;
    const decoded = decodeRecord(comment.body);
    if (!decoded.ok) continue;
    const { record } = decoded;
    const ours =
      record.repository === repository &&
      record.issue === issue &&
      hashPlan(record.snapshot.context, record.checks, record.scope) === record.planHash &&
      sealIsValid(record, ctx.recordKey);
    if (!ours) continue;
    const noPlan = `there is no plan by ${code(botLogin)} (the account the \`bot-login\` input names) on this thread.`;
    // Only an app's bot is named: no person's login ends in [bot], so a copy a person posted (after a
    // maintainer deleted the original) can never be offered as the account to trust.
    if (!comment.author.endsWith('[bot]'))
      return {
        refusal: `${noPlan} Plan \`${record.planId}\` here was made by plangate but posted by another account, so plangate does not trust it.`,
        fix: "If plangate's token is a personal access token, set the `bot-login` input to the login of that token's user, then post the command again; otherwise ask for a new plan with `/plan`.",
      };
    const poster = code(comment.author);
    return {
      refusal: `${noPlan} Plan \`${record.planId}\` here was made by plangate but posted by ${poster}: \`bot-login\` does not name the account plangate posts as, so plangate trusts no plan on this thread until it does.`,
      fix: `If plangate's token posts as ${poster} (a GitHub App's token posts as its bot), set the \`bot-login\` input to ${poster} in the workflow, then post the command again.`,
    };
  }
  return undefined;
}
