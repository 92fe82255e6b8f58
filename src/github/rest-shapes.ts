import type { Comment, PullRequest } from './thread-api.js';

/**
 * REST answers turned into the thread's own shapes, so that nothing above github/ sees GitHub's
 * snake_case fields or their nullable quirks (a deleted user, an empty body).
 */

/** The fields of a REST issue comment the thread reads. */
export interface RawComment {
  id: number;
  node_id: string;
  body?: string | null;
  user: { login: string } | null;
  html_url: string;
  created_at: string;
  updated_at: string;
}

/** The fields of a REST pull request the thread reads. */
export interface RawPull {
  number: number;
  node_id: string;
  draft?: boolean;
  html_url: string;
  title: string;
  body?: string | null;
  user: { login: string } | null;
  head: { ref: string; sha: string; repo: { full_name: string } | null };
  base: { ref: string; repo: { full_name: string } };
}

/** A REST comment as the thread returns it; REST cannot tell the last editor, so `editor` stays unset. */
export function toComment(raw: RawComment): Comment {
  return {
    id: raw.id,
    nodeId: raw.node_id,
    body: raw.body ?? '',
    author: raw.user?.login ?? '',
    url: raw.html_url,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
  };
}

/** A REST pull request as the thread returns it; a fork's head (or a deleted one) is not `sameRepo`. */
export function toPull(raw: RawPull): PullRequest {
  return {
    number: raw.number,
    nodeId: raw.node_id,
    draft: raw.draft ?? false,
    url: raw.html_url,
    title: raw.title,
    body: raw.body ?? '',
    headRef: raw.head.ref,
    headSha: raw.head.sha,
    baseRef: raw.base.ref,
    sameRepo: raw.head.repo?.full_name === raw.base.repo.full_name,
    author: raw.user?.login ?? '',
  };
}
