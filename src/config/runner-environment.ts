import { z } from 'zod';
import { SettingsError } from './settings-error.js';

/**
 * The runner's own variables (GITHUB_*), which say what event started the job and where: read and
 * checked once, so a job that is not an Actions run fails with words instead of an undefined later.
 */

/** The runner's variables as plangate uses them. */
export interface RunnerEnvironment {
  eventName: string;
  eventPath: string;
  owner: string;
  repo: string;
  workspace: string;
  /** RUNNER_TEMP: where the runner and other steps keep their temporary files, credentials among them; empty when unset. */
  temp: string;
  apiUrl: string;
  serverUrl: string;
  runId: string;
  /** GitHub's numeric id of the repository: stays the same when it is renamed. Empty when the runner does not say. */
  repositoryId: string;
}

const runnerSchema = z.object({
  GITHUB_EVENT_NAME: z.string().min(1),
  GITHUB_EVENT_PATH: z.string().min(1),
  GITHUB_REPOSITORY: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'must be owner/name'),
  GITHUB_WORKSPACE: z.string().min(1),
  RUNNER_TEMP: z.string().optional(),
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  GITHUB_SERVER_URL: z.url().default('https://github.com'),
  GITHUB_RUN_ID: z.string().default(''),
  GITHUB_REPOSITORY_ID: z.string().regex(/^\d*$/, 'must be a number').default(''),
});

/** The runner's variables from `env`; a missing one means plangate is not running inside an Actions job. */
export function readRunner(env: NodeJS.ProcessEnv): RunnerEnvironment {
  const parsed = runnerSchema.safeParse(env);
  if (!parsed.success) {
    const what = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new SettingsError(
      `The runner environment is incomplete (${what}). plangate must run inside a GitHub Actions job.`,
    );
  }
  const e = parsed.data;
  const [owner = '', repo = ''] = e.GITHUB_REPOSITORY.split('/');
  return {
    eventName: e.GITHUB_EVENT_NAME,
    eventPath: e.GITHUB_EVENT_PATH,
    owner,
    repo,
    workspace: e.GITHUB_WORKSPACE,
    temp: e.RUNNER_TEMP ?? '',
    apiUrl: e.GITHUB_API_URL.replace(/\/+$/, ''),
    serverUrl: e.GITHUB_SERVER_URL.replace(/\/+$/, ''),
    runId: e.GITHUB_RUN_ID,
    repositoryId: e.GITHUB_REPOSITORY_ID,
  };
}

/** The workflow run's page, where its job log is; '' outside a workflow run (no run id). */
export function runUrlOf(runner: Pick<RunnerEnvironment, 'serverUrl' | 'owner' | 'repo' | 'runId'>): string {
  return runner.runId ? `${runner.serverUrl}/${runner.owner}/${runner.repo}/actions/runs/${runner.runId}` : '';
}
