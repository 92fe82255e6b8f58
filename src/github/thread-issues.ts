import type { IssueRef, Thread } from './thread-api.js';
import { createOnce, NO_BLIND_RETRY, type ThreadScope } from './thread-scope.js';

/**
 * The thread's issue calls: reading the issue a command came from, and the tracking issue a
 * scheduled task finds again by its label or opens (at most once) and labels.
 */

/** The issue calls of a thread. */
export type IssueCalls = Pick<Thread, 'getIssue' | 'findOpenIssue' | 'createIssue' | 'addLabels'>;

function toRef(data: { number: number; title: string; body?: string | null; html_url: string }): IssueRef {
  return { number: data.number, title: data.title, body: data.body ?? '', url: data.html_url };
}

/** Issue calls for one repository; see Thread (thread-api.ts) for each call's promise. */
export function issueCalls(scope: ThreadScope): IssueCalls {
  const { octokit, owner, repo, botLogin, safe, safeTitle } = scope;
  return {
    async getIssue(number) {
      const { data } = await octokit.rest.issues.get({ owner, repo, issue_number: number });
      return { title: data.title, body: data.body ?? '', author: data.user?.login ?? '' };
    },
    async findOpenIssue(label) {
      const issues = await octokit.paginate(octokit.rest.issues.listForRepo, {
        owner,
        repo,
        state: 'open',
        labels: label,
        per_page: 100,
        sort: 'created',
        direction: 'asc',
      });
      const issue = issues.find((i) => !i.pull_request);
      return issue ? toRef(issue) : undefined;
    },
    async createIssue(input) {
      const body = await safe(input.body);
      const title = await safeTitle(input.title);
      // A new issue notifies people like a comment does: after a lost answer, look before sending again.
      return createOnce(
        scope,
        async () => {
          const { data } = await octokit.rest.issues.create({
            owner,
            repo,
            title,
            body,
            labels: input.labels,
            ...(input.assignees.length ? { assignees: input.assignees } : {}),
            request: NO_BLIND_RETRY,
          });
          return toRef(data);
        },
        async () => {
          const label = input.labels[0];
          const { data } = await octokit.rest.issues.listForRepo({
            owner,
            repo,
            state: 'open',
            sort: 'created',
            direction: 'desc',
            per_page: 100,
            ...(label ? { labels: label } : {}),
          });
          const found = data.find(
            (i) => !i.pull_request && i.user?.login === botLogin && i.title === input.title && (i.body ?? '') === body,
          );
          return found ? toRef(found) : undefined;
        },
      );
    },
    async addLabels(issue, labels) {
      // Adding a label it already has changes nothing, so plugin retries stay on.
      const { data } = await octokit.rest.issues.addLabels({ owner, repo, issue_number: issue, labels: [...labels] });
      return data.map((label) => label.name);
    },
  };
}
