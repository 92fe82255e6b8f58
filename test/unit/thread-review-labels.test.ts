import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/github/client.js';
import { createThread, type Thread } from '../../src/github/thread.js';
import { startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';
import { createGitHubResponseCheck } from '../fakes/github-openapi-check.js';

// Review requests and labels, the two writes that make a plangate pull request reach its reviewers.
// The emulator runs without origin: every branch exists, which is all pull requests need here.

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_threadReviewToken0123456789';
const bot = 'github-actions[bot]';

let gh: GitHubEmulator;
let thread: Thread;

beforeAll(async () => {
  gh = await startGitHubEmulator({ owner, repo, token });
  gh.setPermission('octocat', 'write');
  thread = createThread(createGitHubClient(token, gh.url, { waitUnitMs: 1, pace: false }), { owner, repo }, [], {
    retryDelayMs: 1,
  });
});

afterAll(async () => {
  await gh?.close();
});

async function newPull(head: string): Promise<number> {
  const pull = await thread.createPullRequest({
    title: `work on ${head}`,
    head,
    base: 'main',
    body: 'body',
    draft: false,
  });
  return pull.number;
}

async function statusOfRejection(promise: Promise<unknown>): Promise<number | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e as { status?: number },
  );
  if (error === undefined) throw new Error('expected a rejection');
  return error.status;
}

describe('requestReviewers', () => {
  it('requests a collaborator once, however often asked, as GitHub lists it on the pull request', async () => {
    const number = await newPull('review-1');
    expect(await thread.requestReviewers(number, ['octocat'])).toEqual(['octocat']);
    expect(await thread.requestReviewers(number, ['octocat'])).toEqual(['octocat']);
    const pull = gh.pulls().find((p) => p.number === number);
    expect(pull?.requested_reviewers?.map((u) => u.login)).toEqual(['octocat']);
    const request = gh.requests.find(
      (r) => r.method === 'POST' && r.path === `/repos/${owner}/${repo}/pulls/${number}/requested_reviewers`,
    );
    expect(request?.status).toBe(201);
    // The reviewer as the pull request shows it still matches GitHub's published shape.
    expect(createGitHubResponseCheck().problems('GET', '/repos/{owner}/{repo}/pulls/{pull_number}', 200, pull)).toEqual(
      [],
    );
  });

  it('is refused with 422 for the pull request author and for a non-collaborator', async () => {
    const number = await newPull('review-2');
    expect(await statusOfRejection(thread.requestReviewers(number, [bot]))).toBe(422);
    expect(await statusOfRejection(thread.requestReviewers(number, ['stranger']))).toBe(422);
    expect(gh.pulls().find((p) => p.number === number)?.requested_reviewers).toEqual([]);
  });
});

describe('addLabels', () => {
  it('adds labels to a pull request beside those it has, creating unknown ones', async () => {
    const number = await newPull('labels-1');
    expect(await thread.addLabels(number, ['plangate', 'needs review'])).toEqual(['plangate', 'needs review']);
    expect(await thread.addLabels(number, ['plangate', 'bot'])).toEqual(['plangate', 'needs review', 'bot']);
    expect(
      gh
        .pulls()
        .find((p) => p.number === number)
        ?.labels.map((l) => l.name),
    ).toEqual(['plangate', 'needs review', 'bot']);
  });
});
