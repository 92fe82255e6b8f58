import type { SourceLocation } from './github-emulator-graphql-parse.js';
import { reviewStore, type ReviewCommentRecord } from './github-emulator-reviews.js';
import { legacyNodeId, type IssueRecord, type UserRecord } from './github-emulator-shapes.js';
import type { GitHubState } from './github-emulator-state.js';

/**
 * A pull request's review threads as GitHub's GraphQL API serves them (`reviewThreads`, which REST
 * lacks): whether each is resolved (and by whom) or outdated, where it is, and its comments. Also the cursor
 * paging every connection of the emulator shares, with GitHub's errors for a missing or too large
 * page size and a cursor it did not give.
 */

/** The schema types this file serves, in the SDL notation of the emulator's schema. */
export const REVIEW_THREAD_TYPES = {
  PullRequestReviewThreadConnection: {
    kind: 'OBJECT',
    fields: {
      nodes: { type: '[PullRequestReviewThread]' },
      pageInfo: { type: 'PageInfo!' },
      totalCount: { type: 'Int!' },
    },
  },
  PullRequestReviewThread: {
    kind: 'OBJECT',
    interfaces: ['Node'],
    fields: {
      id: { type: 'ID!' },
      isResolved: { type: 'Boolean!' },
      resolvedBy: { type: 'User' },
      isOutdated: { type: 'Boolean!' },
      path: { type: 'String!' },
      line: { type: 'Int' },
      comments: { type: 'PullRequestReviewCommentConnection!', args: { first: 'Int', after: 'String' } },
    },
  },
  PullRequestReviewCommentConnection: {
    kind: 'OBJECT',
    fields: {
      nodes: { type: '[PullRequestReviewComment]' },
      pageInfo: { type: 'PageInfo!' },
      totalCount: { type: 'Int!' },
    },
  },
  PullRequestReviewComment: {
    kind: 'OBJECT',
    interfaces: ['Node'],
    fields: {
      id: { type: 'ID!' },
      databaseId: { type: 'Int' },
      fullDatabaseId: { type: 'BigInt' },
      url: { type: 'URI!' },
      body: { type: 'String!' },
      path: { type: 'String!' },
      line: { type: 'Int' },
      createdAt: { type: 'DateTime!' },
    },
  },
} as const;

interface PageInfo {
  path: (string | number)[];
  loc: SourceLocation;
  errors: { type?: string; path?: (string | number)[]; locations?: SourceLocation[]; message: string }[];
}

/** GitHub caps a connection page at 100 nodes and wants the size asked for. */
const MAX_PAGE = 100;

/** Opaque to clients, as GitHub's are; here the offset of the last node of a page. */
function encodeCursor(offset: number): string {
  return Buffer.from(`cursor:v2:${offset}`).toString('base64');
}

function decodeCursor(cursor: string): number | undefined {
  const match = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

/** One page of `all` as the connection `typename` (called `name` in errors), or null with GitHub's error. */
export function pagedConnection<T>(
  typename: string,
  name: string,
  all: readonly T[],
  toNode: (item: T) => unknown,
): (args: Record<string, unknown>, info: PageInfo) => unknown {
  return (args, info) => {
    const first = typeof args.first === 'number' ? args.first : undefined;
    const fail = (message: string, type?: string) => {
      info.errors.push({ ...(type ? { type } : {}), path: info.path, locations: [info.loc], message });
      return null;
    };
    if (first === undefined) {
      const message = `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`;
      return fail(message, 'MISSING_PAGINATION_BOUNDARIES');
    }
    if (first < 0 || first > MAX_PAGE) {
      const message = `Requesting ${first} records on the \`${name}\` connection exceeds the \`first\` limit of ${MAX_PAGE} records.`;
      return fail(message, 'EXCESSIVE_PAGINATION');
    }
    let start = 0;
    if (typeof args.after === 'string') {
      const offset = decodeCursor(args.after);
      if (offset === undefined) return fail(`\`${args.after}\` does not appear to be a valid cursor.`);
      start = offset + 1;
    }
    const page = all.slice(start, start + first);
    return {
      __typename: typename,
      nodes: page.map(toNode),
      totalCount: all.length,
      pageInfo: {
        __typename: 'PageInfo',
        hasNextPage: start + page.length < all.length,
        hasPreviousPage: start > 0,
        startCursor: page.length > 0 ? encodeCursor(start) : null,
        endCursor: page.length > 0 ? encodeCursor(start + page.length - 1) : null,
      },
    };
  };
}

function reviewCommentObject(state: GitHubState, c: ReviewCommentRecord): Record<string, unknown> {
  const { serverUrl, owner, repo } = state.ctx;
  return {
    __typename: 'PullRequestReviewComment',
    id: legacyNodeId('PullRequestReviewComment', c.id),
    databaseId: c.id,
    fullDatabaseId: String(c.id),
    url: `${serverUrl}/${owner}/${repo}/pull/${c.pull}#discussion_r${c.id}`,
    body: c.body,
    path: c.path,
    line: c.position === null ? null : c.line,
    createdAt: c.createdAt,
  };
}

/**
 * A pull request's review threads, oldest first: each first comment with the replies to it.
 * `actor` makes an account's GraphQL object. GitHub types `resolvedBy` as a `User`, so a thread an
 * app resolved names nobody.
 */
export function reviewThreadConnection(
  state: GitHubState,
  issue: IssueRecord,
  actor: (state: GitHubState, user: UserRecord) => unknown,
) {
  const comments = reviewStore(state).comments.filter((c) => c.pull === issue.number);
  const threads = comments
    .filter((c) => c.inReplyTo === undefined)
    .map((first) => ({ first, all: comments.filter((c) => c.id === first.id || c.inReplyTo === first.id) }));
  return pagedConnection('PullRequestReviewThreadConnection', 'reviewThreads', threads, ({ first, all }) => ({
    __typename: 'PullRequestReviewThread',
    id: legacyNodeId('PullRequestReviewThread', first.id),
    isResolved: first.resolvedBy !== undefined,
    resolvedBy: first.resolvedBy?.type === 'User' ? actor(state, first.resolvedBy) : null,
    isOutdated: first.position === null,
    path: first.path,
    line: first.position === null ? null : first.line,
    comments: pagedConnection('PullRequestReviewCommentConnection', 'comments', all, (c) =>
      reviewCommentObject(state, c),
    ),
  }));
}
