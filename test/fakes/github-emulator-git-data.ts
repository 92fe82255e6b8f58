import { z } from 'zod';
import type { GitCommitObject, GitPerson, OriginRepo } from './github-emulator-git.js';
import {
  created,
  errorReply,
  notFound,
  parseBody,
  type Reply,
  type Route,
  type RouteRequest,
} from './github-emulator-routes.js';
import { stableUserId, type ShapeContext } from './github-emulator-shapes.js';
import type { GitHubState } from './github-emulator-state.js';

/**
 * GitHub's git data API (commits and refs) over the real bare repository that plays `origin`:
 * objects are written with git itself and refs move with git's compare-and-swap, so a lock built on
 * refs behaves here as it does on GitHub, including between several action processes at once.
 */

const DOCS = 'https://docs.github.com/rest/git';
const DOC = {
  createCommit: `${DOCS}/commits#create-a-commit`,
  getCommit: `${DOCS}/commits#get-a-commit-object`,
  createRef: `${DOCS}/refs#create-a-reference`,
  getRef: `${DOCS}/refs#get-a-reference`,
  updateRef: `${DOCS}/refs#update-a-reference`,
  deleteRef: `${DOCS}/refs#delete-a-reference`,
} as const;

function repoApi(ctx: ShapeContext): string {
  return `${ctx.apiUrl}/repos/${ctx.owner}/${ctx.repo}`;
}

function repoHtml(ctx: ShapeContext): string {
  return `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}`;
}

/** The legacy node id GitHub gives commits: base64 of "06:Commit<repo id>:<sha>". */
function commitNodeId(ctx: ShapeContext, sha: string): string {
  return Buffer.from(`06:Commit${ctx.repoId}:${sha}`).toString('base64');
}

/** A `git-commit`. */
export function gitCommitShape(ctx: ShapeContext, commit: GitCommitObject): Record<string, unknown> {
  const api = repoApi(ctx);
  const html = repoHtml(ctx);
  return {
    sha: commit.sha,
    node_id: commitNodeId(ctx, commit.sha),
    url: `${api}/git/commits/${commit.sha}`,
    html_url: `${html}/commit/${commit.sha}`,
    author: commit.author,
    committer: commit.committer,
    tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
    message: commit.message,
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${api}/git/commits/${sha}`,
      html_url: `${html}/commit/${sha}`,
    })),
    verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
  };
}

/** A `git-ref`; `ref` is the full name (`refs/...`). */
export function gitRefShape(ctx: ShapeContext, ref: string, sha: string, type: string): Record<string, unknown> {
  const api = repoApi(ctx);
  const plural = type === 'commit' ? 'commits' : `${type}s`;
  return {
    ref,
    node_id: Buffer.from(`03:Ref${ref}`).toString('base64'),
    url: `${api}/git/${ref}`,
    object: { type, sha, url: `${api}/git/${plural}/${sha}` },
  };
}

/** GitHub's answer for git data on a repository with no commits, and here for one without origin. */
function emptyRepository(docs: string): Reply {
  return errorReply(409, 'Git Repository is empty.', docs);
}

function withOrigin(docs: string, answer: (origin: OriginRepo) => Reply): (state: GitHubState) => Reply {
  return (state) => (state.origin ? answer(state.origin) : emptyRepository(docs));
}

const personInput = z.object({ name: z.string(), email: z.string(), date: z.string().optional() });

/** GitHub's author for an API commit when none is given: the token's account, noreply address. */
function callerPerson(state: GitHubState, request: RouteRequest, date: string): GitPerson {
  const login = request.caller.login;
  return { name: login, email: `${stableUserId(login)}+${login}@users.noreply.github.com`, date };
}

function refReply(state: GitHubState, origin: OriginRepo, ref: string, sha: string, status: number): Reply {
  const body = gitRefShape(state.ctx, ref, sha, origin.objectType(sha) ?? 'commit');
  return status === 201 ? created(body) : { status, body };
}

/** The {ref} of the refs routes is the name without `refs/`; GitHub accepts it with or without encoded slashes. */
function fullRef(request: RouteRequest): string {
  return `refs/${request.params.ref ?? ''}`;
}

export const GIT_DATA_ROUTES: readonly Route[] = [
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/git/commits',
    docs: DOC.createCommit,
    writes: 'contents',
    handle: (state, request) =>
      withOrigin(DOC.createCommit, (origin) => {
        const schema = z.object({
          message: z.string(),
          tree: z.string(),
          parents: z.array(z.string()).optional(),
          author: personInput.optional(),
          committer: personInput.optional(),
        });
        const parsed = parseBody(schema, request.body, DOC.createCommit);
        if (!parsed.ok) return parsed.reply;
        const input = parsed.value;
        if (origin.objectType(input.tree) !== 'tree')
          return errorReply(422, 'Tree SHA does not exist', DOC.createCommit);
        const parents = input.parents ?? [];
        if (parents.some((sha) => origin.objectType(sha) !== 'commit')) {
          return errorReply(422, 'Parent SHA does not exist or is not a commit object', DOC.createCommit);
        }
        const at = state.now();
        const author = input.author
          ? { ...input.author, date: input.author.date ?? at }
          : callerPerson(state, request, at);
        const committer = input.committer ? { ...input.committer, date: input.committer.date ?? at } : author;
        const sha = origin.createCommit({ tree: input.tree, parents, message: input.message, author, committer });
        const commit = origin.readCommit(sha);
        if (!commit) throw new Error(`git wrote commit ${sha} but cannot read it back`);
        return created(gitCommitShape(state.ctx, commit));
      })(state),
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/git/commits/{commit_sha}',
    docs: DOC.getCommit,
    handle: (state, request) =>
      withOrigin(DOC.getCommit, (origin) => {
        const commit = origin.readCommit((request.params.commit_sha ?? '').toLowerCase());
        return commit ? { status: 200, body: gitCommitShape(state.ctx, commit) } : notFound(DOC.getCommit);
      })(state),
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/git/refs',
    docs: DOC.createRef,
    writes: 'contents',
    handle: (state, request) =>
      withOrigin(DOC.createRef, (origin) => {
        const parsed = parseBody(z.object({ ref: z.string(), sha: z.string() }), request.body, DOC.createRef);
        if (!parsed.ok) return parsed.reply;
        const { ref, sha } = parsed.value;
        if (!ref.startsWith('refs/') || ref.split('/').length < 3) {
          return errorReply(
            422,
            "Reference name must start with 'refs/' and have at least two slashes.",
            DOC.createRef,
          );
        }
        if (!origin.validRefName(ref)) return errorReply(422, `${ref} is not a valid ref name.`, DOC.createRef);
        if (origin.objectType(sha) === undefined) return errorReply(422, 'Object does not exist', DOC.createRef);
        // Create-if-absent in one git step: of two racing creators exactly one gets the 201.
        if (!origin.createRef(ref, sha)) return errorReply(422, 'Reference already exists', DOC.createRef);
        return refReply(state, origin, ref, sha, 201);
      })(state),
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/git/ref/{ref}',
    docs: DOC.getRef,
    handle: (state, request) =>
      withOrigin(DOC.getRef, (origin) => {
        const ref = fullRef(request);
        const sha = origin.refSha(ref);
        return sha === undefined ? notFound(DOC.getRef) : refReply(state, origin, ref, sha, 200);
      })(state),
  },
  {
    method: 'PATCH',
    template: '/repos/{owner}/{repo}/git/refs/{ref}',
    docs: DOC.updateRef,
    writes: 'contents',
    handle: (state, request) =>
      withOrigin(DOC.updateRef, (origin) => {
        const parsed = parseBody(
          z.object({ sha: z.string(), force: z.boolean().optional() }),
          request.body,
          DOC.updateRef,
        );
        if (!parsed.ok) return parsed.reply;
        const { sha, force } = parsed.value;
        const ref = fullRef(request);
        const current = origin.refSha(ref);
        if (current === undefined) return errorReply(422, 'Reference does not exist', DOC.updateRef);
        if (origin.objectType(sha) === undefined) return errorReply(422, 'Object does not exist', DOC.updateRef);
        const fastForward =
          origin.objectType(current) === 'commit' &&
          origin.objectType(sha) === 'commit' &&
          origin.isAncestor(current, sha);
        if (force !== true && !fastForward) return errorReply(422, 'Update is not a fast forward', DOC.updateRef);
        // Compare-and-swap against what was just checked: a push to origin in between loses nothing.
        if (!origin.updateRef(ref, sha, current)) return errorReply(422, 'Reference cannot be updated', DOC.updateRef);
        return refReply(state, origin, ref, sha, 200);
      })(state),
  },
  {
    method: 'DELETE',
    template: '/repos/{owner}/{repo}/git/refs/{ref}',
    docs: DOC.deleteRef,
    writes: 'contents',
    handle: (state, request) =>
      withOrigin(DOC.deleteRef, (origin) => {
        const ref = fullRef(request);
        const current = origin.refSha(ref);
        if (current === undefined || !origin.deleteRef(ref, current)) {
          return errorReply(422, 'Reference does not exist', DOC.deleteRef);
        }
        return { status: 204 };
      })(state),
  },
];
