import * as core from '@actions/core';
import { commandText } from '../text/comment-command.js';
import type { CommandSource, MaintenanceTrigger } from '../run/command.js';
import { hasRole } from '../config/permissions.js';
import { defaultPolicy, initialSnapshot } from '../machine/planner-executor.js';
import { executorOnlySnapshot } from '../machine/executor-only.js';
import { formatCost } from '../models/usage.js';
import { hasRecordMarker } from '../record/plan-record.js';
import { escapeHtml } from '../text/markdown.js';
import type { FlowResult, RunContext } from '../run/run-context.js';
import { defaultPlanMaxAgeDays, type RepoConfig } from '../config/settings.js';
import { stripHidden } from '../text/untrusted.js';
import { executeWithoutPlanner } from '../run/executor-only-run.js';
import { planAndPublish } from '../run/planning.js';
import { verifyRecordComment } from '../run/live-record.js';
import { resolveBase } from '../run/work-base.js';
import { errorMessage } from '../text/error-message.js';

/**
 * Scheduled and dispatched maintenance: each task from the config file runs through the same plan
 * gate as a human's `/plan`, on a tracking issue of its own that later runs find again by label.
 * One task failing never stops the others; the job summary lists every task and what became of it.
 */
type Task = NonNullable<RepoConfig['tasks']>[number];

interface TaskRow {
  task: string;
  status: 'ran' | 'skipped' | 'failed';
  detail: string;
  issueUrl?: string;
  planId?: string;
  prUrl?: string;
  costUsd?: number | null;
}

/** The label that finds a task's tracking issue again (GitHub caps label names at 50 characters). */
export function taskLabel(name: string): string {
  return `plangate:${name}`.slice(0, 50);
}

export async function maintainFlow(ctx: RunContext, trigger: MaintenanceTrigger): Promise<FlowResult> {
  const tasks = ctx.settings.config.tasks ?? [];
  let chosen: Task[];
  let requestedBy = ctx.settings.botLogin;
  if (trigger.type === 'schedule') {
    // A task with a cron runs only on that schedule; one without runs on every schedule event.
    chosen = tasks.filter((task) => task.cron === undefined || task.cron === trigger.cron);
  } else {
    // The payload names the actor; whether they may command plangate is the API's answer.
    const role = await ctx.thread.permissionOf(trigger.actor);
    if (!hasRole(role, ctx.settings.triggerPermission)) {
      throw new Error(
        `@${trigger.actor} has ${role} permission on this repository; dispatching plangate needs ${ctx.settings.triggerPermission} or higher.`,
      );
    }
    requestedBy = trigger.actor;
    if (trigger.task !== undefined) {
      const task = tasks.find((t) => t.name === trigger.task);
      if (!task) {
        const known = tasks.map((t) => t.name).join(', ') || 'none';
        throw new Error(`There is no task named "${trigger.task}" in ${ctx.settings.configFile} (tasks: ${known}).`);
      }
      chosen = [task];
    } else if (trigger.objective !== undefined) {
      const objective = stripHidden(trigger.objective);
      chosen = [{ name: `adhoc-${ctx.settings.runner.runId || Date.now()}`, objective }];
    } else {
      throw new Error(
        'A workflow_dispatch run needs the input `task` (a task from the config file) or `objective` (an ad-hoc task).',
      );
    }
  }

  // A job being stopped starts no further task: each would open an issue and ask a model.
  let stoppedBy: string | undefined;
  const withdraw = ctx.onStop?.(async (signal) => void (stoppedBy = signal));
  const rows: TaskRow[] = [];
  for (const task of chosen) {
    if (stoppedBy !== undefined) {
      rows.push({ task: task.name, status: 'skipped', detail: `not started: the job was stopped by ${stoppedBy}` });
      continue;
    }
    try {
      rows.push(await runTask(ctx, task, requestedBy, trigger.type === 'dispatch' && trigger.objective !== undefined));
    } catch (error) {
      const message = errorMessage(error);
      core.error(`Task ${task.name} failed: ${message}`);
      rows.push({ task: task.name, status: 'failed', detail: message });
    }
  }
  withdraw?.();
  await ctx.writeSummary(renderTaskSummary(trigger, rows));
  const failed = rows.filter((r) => r.status === 'failed');
  const only = rows.length === 1 ? rows[0] : undefined;
  return {
    outcome: failed.length > 0 ? 'failed' : rows.every((r) => r.status === 'skipped') ? 'ignored' : 'done',
    ...(only?.planId ? { planId: only.planId } : {}),
    ...(only?.prUrl ? { prUrl: only.prUrl } : {}),
  };
}

async function runTask(ctx: RunContext, task: Task, requestedBy: string, adhoc: boolean): Promise<TaskRow> {
  const { thread, settings } = ctx;
  const label = taskLabel(task.name);
  let issue = adhoc ? undefined : await thread.findOpenIssue(label);
  if (issue) {
    const skipped = await earlierWorkOpen(ctx, task, issue);
    if (skipped) return skipped;
  } else {
    issue = await thread.createIssue({
      title: adhoc
        ? `plangate: ${task.objective.split('\n')[0]?.slice(0, 80) ?? 'ad-hoc task'}`
        : `plangate task: ${task.name}`,
      body: `${task.objective}\n\n---\nOpened by plangate for the ${adhoc ? 'ad-hoc objective dispatched by' : 'scheduled task'} ${adhoc ? `@${requestedBy}` : `\`${task.name}\``}. Plans are posted here; a maintainer approves one with \`${commandText('approve', settings.commandPrefix)}\`.`,
      labels: [label, ...(task.labels ?? [])],
      assignees: task.assignees ?? [],
    });
  }

  // The task's own settings override the action's for this run only.
  const taskCtx: RunContext = {
    ...ctx,
    settings: {
      ...settings,
      policy: task.policy ?? 'plan-for-approval',
      allowedCommands: task['allowed-commands'] ?? settings.allowedCommands,
    },
  };
  // Planning hangs off a comment of the bot's: it names the run and gives the plan its id.
  const kickoff = await thread.postComment(
    issue.number,
    `🗓️ plangate is running task \`${escapeHtml(task.name)}\`${ctx.runUrl ? ` ([job](${ctx.runUrl}))` : ''}.`,
  );
  const source: CommandSource = {
    thread: { number: issue.number, isPullRequest: false, title: issue.title, body: issue.body },
    commentId: kickoff.id,
    commentUrl: kickoff.url,
    author: requestedBy,
    body: kickoff.body,
  };
  const base = await resolveBase(taskCtx, source);
  if ('refusal' in base) throw new Error(base.refusal);
  const policy = { ...defaultPolicy, maxIterations: settings.maxIterations };
  const comments = await thread.listComments(issue.number);
  const request = { source, requestedBy, base, comments };
  const result =
    taskCtx.settings.policy === 'executor-only'
      ? await executeWithoutPlanner(taskCtx, { ...request, snapshot: executorOnlySnapshot(task.objective, policy) })
      : await planAndPublish(taskCtx, { ...request, snapshot: initialSnapshot(task.objective, policy) });
  return {
    task: task.name,
    status: result.outcome === 'failed' ? 'failed' : 'ran',
    detail: result.outcome,
    issueUrl: issue.url,
    ...(result.planId ? { planId: result.planId } : {}),
    ...(result.prUrl ? { prUrl: result.prUrl } : {}),
    costUsd: result.usage?.costUsd ?? null,
  };
}

/** A row that skips the task while an earlier run's pull request or plan is still open on its issue. */
async function earlierWorkOpen(
  ctx: RunContext,
  task: Task,
  issue: { number: number; url: string },
): Promise<TaskRow | undefined> {
  const { thread, settings } = ctx;
  // An earlier run's work is still open: a PR waiting for review, or a plan waiting for approval.
  const open = (await thread.listOpenPullRequests()).find((pr) =>
    pr.headRef.startsWith(`${settings.branchPrefix}${issue.number}-`),
  );
  if (open)
    return {
      task: task.name,
      status: 'skipped',
      detail: `pull request #${open.number} from an earlier run is still open`,
      issueUrl: issue.url,
      prUrl: open.url,
    };
  const pending = await pendingRecord(ctx, issue.number);
  if (pending) {
    const maxAgeDays = settings.config['plan-max-age-days'] ?? defaultPlanMaxAgeDays;
    const ageDays = (Date.now() - Date.parse(pending.createdAt)) / 86_400_000;
    if (pending.status === 'executing' || ageDays < maxAgeDays) {
      const why =
        pending.status === 'executing'
          ? 'is executing'
          : `waits for approval (posted ${pending.createdAt.slice(0, 10)}; refreshed after ${maxAgeDays} days)`;
      return {
        task: task.name,
        status: 'skipped',
        detail: `plan ${pending.planId} ${why}`,
        issueUrl: issue.url,
        planId: pending.planId,
      };
    }
  }
  return undefined;
}

/**
 * The newest plan on a tracking issue that still waits (proposed, asking) or runs. Only a record
 * plangate signed counts: a comment another workflow posted as the bot cannot keep a task skipped.
 */
async function pendingRecord(ctx: RunContext, issue: number) {
  const comments = await ctx.thread.listComments(issue);
  for (const comment of [...comments].reverse()) {
    if (comment.author !== ctx.settings.botLogin || !hasRecordMarker(comment.body)) continue;
    const verdict = verifyRecordComment(ctx, comment, issue);
    if (!verdict.ok) {
      core.warning(`Ignored a plan record on issue #${issue} (${comment.url || comment.id}): ${verdict.reason}.`);
      continue;
    }
    const { status, planId, postedAt } = verdict.record;
    return ['proposed', 'asking', 'executing', 'approved'].includes(status)
      ? { status, planId, createdAt: postedAt ?? comment.createdAt }
      : undefined;
  }
  return undefined;
}

function renderTaskSummary(trigger: MaintenanceTrigger, rows: TaskRow[]): string {
  const what = trigger.type === 'schedule' ? `schedule \`${trigger.cron}\`` : `dispatch by @${trigger.actor}`;
  const link = (label: string, url?: string) => (url ? `[${label}](${url})` : '—');
  return [
    `### plangate maintenance (${what})`,
    '',
    rows.length === 0
      ? '_No task matched this event._'
      : '| task | status | detail | issue / plan | pull request | cost |',
    ...(rows.length === 0
      ? []
      : [
          '|---|---|---|---|---|---:|',
          ...rows.map(
            (r) =>
              `| \`${r.task}\` | ${r.status} | ${escapeHtml(r.detail).replace(/\|/g, '\\|')} | ${link(r.planId ? `plan ${r.planId}` : 'issue', r.issueUrl)} | ${link('PR', r.prUrl)} | ${r.costUsd === undefined ? '—' : formatCost(r.costUsd)} |`,
          ),
        ]),
  ].join('\n');
}
