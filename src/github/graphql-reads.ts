import { z } from 'zod';
import { actorShape, GHOST, restLogin, toEdit } from './graphql-actor.js';
import type { ThreadScope } from './thread-scope.js';
import type { Comment, LastEdit, Thread } from './thread-api.js';

/**
 * The thread's reads that go through GraphQL: REST cannot tell who last edited a comment, and a
 * plan comment is believed only while no one but the bot edited it, so these reads fetch body,
 * author and last editor together, and the approval's re-check reads comment and thread text in
 * one call.
 */

/**
 * Who last edited one comment. `__typename` tells an app's bot from a person, because GraphQL
 * drops the `[bot]` suffix that REST (and the `bot-login` input) carry.
 */
const LAST_EDITOR_QUERY = `query plangateLastEditor($id: ID!) {
  node(id: $id) {
    ... on IssueComment {
      editor { __typename login }
      lastEditedAt
    }
  }
}`;

const lastEditorAnswer = z.object({
  node: z
    .object({
      editor: z.object({ __typename: z.string(), login: z.string() }).nullable(),
      lastEditedAt: z.string().nullable(),
    })
    .nullable(),
});

function toLastEdit(commentNodeId: string, answer: unknown): LastEdit {
  const { node } = lastEditorAnswer.parse(answer);
  if (node === null) throw new Error(`GitHub knows no comment with node id ${commentNodeId}`);
  return toEdit(node.editor, node.lastEditedAt);
}

/**
 * The thread in one GraphQL call per hundred comments: body, author and last editor together, so
 * believing a plan comment (bot-written, never edited by anyone else) needs no second call.
 */
const THREAD_QUERY = `query plangateThread($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    issueOrPullRequest(number: $number) {
      ... on Issue { comments(first: 100, after: $after) { ...plangateComments } }
      ... on PullRequest { comments(first: 100, after: $after) { ...plangateComments } }
    }
  }
}
fragment plangateComments on IssueCommentConnection {
  pageInfo { hasNextPage endCursor }
  nodes {
    id
    fullDatabaseId
    url
    body
    createdAt
    updatedAt
    lastEditedAt
    author { __typename login }
    editor { __typename login }
  }
}`;

const threadAnswer = z.object({
  repository: z.object({
    issueOrPullRequest: z.object({
      comments: z.object({
        pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
        nodes: z.array(
          z.object({
            id: z.string(),
            // A BigInt, which GitHub sends as a string: comment ids no longer fit GraphQL's Int.
            fullDatabaseId: z.union([z.string(), z.number()]).transform(Number).pipe(z.number().int().positive()),
            url: z.string(),
            body: z.string(),
            createdAt: z.string(),
            updatedAt: z.string(),
            lastEditedAt: z.string().nullable(),
            author: actorShape.nullable(),
            editor: actorShape.nullable(),
          }),
        ),
      }),
    }),
  }),
});

/** The plan comment and the thread's text together: the approval's re-check in one call. */
const APPROVAL_QUERY = `query plangateApproval($owner: String!, $name: String!, $number: Int!, $comment: ID!) {
  node(id: $comment) { ... on IssueComment { body lastEditedAt editor { __typename login } } }
  repository(owner: $owner, name: $name) {
    issueOrPullRequest(number: $number) {
      ... on Issue { title body }
      ... on PullRequest { title body }
    }
  }
}`;

/** The thread's text alone, for an execution that has no plan comment. */
const ISSUE_TEXT_QUERY = `query plangateIssueText($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    issueOrPullRequest(number: $number) {
      ... on Issue { title body }
      ... on PullRequest { title body }
    }
  }
}`;

const approvalAnswer = z.object({
  node: z
    .object({ body: z.string(), lastEditedAt: z.string().nullable(), editor: actorShape.nullable() })
    .nullable()
    .optional(),
  repository: z.object({ issueOrPullRequest: z.object({ title: z.string(), body: z.string().nullable() }) }),
});

/** GraphQL's partial answer: `data` beside `errors`, which Octokit raises as an error carrying both. */
const partialAnswer = z.object({
  data: z.unknown(),
  errors: z.array(
    z.object({ type: z.string().optional(), path: z.array(z.union([z.string(), z.number()])).optional() }),
  ),
});

/**
 * The data of an answer whose only errors say the comment node is gone (GitHub answers a deleted
 * comment's id with NOT_FOUND beside the rest of the data); undefined for any other failure.
 */
function dataWithoutComment(error: unknown): unknown {
  const parsed = partialAnswer.safeParse(error);
  if (!parsed.success || parsed.data.errors.length === 0) return undefined;
  const onlyNode = parsed.data.errors.every(
    (e) => e.type === 'NOT_FOUND' && e.path?.length === 1 && e.path[0] === 'node',
  );
  return onlyNode ? parsed.data.data : undefined;
}

/** The GraphQL half of a thread: the listing, the last editor and the approval's re-check. */
export type GraphqlReads = Pick<Thread, 'listComments' | 'lastEditor' | 'approvalState'>;

/** The reads of one repository's threads; see Thread (thread-api.ts) for each call's promise. */
export function graphqlReads({ octokit, owner, repo }: ThreadScope): GraphqlReads {
  return {
    async listComments(issue) {
      const comments: Comment[] = [];
      let after: string | null = null;
      do {
        const answer = threadAnswer.parse(
          await octokit.graphql(THREAD_QUERY, { owner, name: repo, number: issue, after }),
        );
        const { pageInfo, nodes } = answer.repository.issueOrPullRequest.comments;
        for (const node of nodes) {
          comments.push({
            id: node.fullDatabaseId,
            nodeId: node.id,
            body: node.body,
            author: node.author ? restLogin(node.author) : GHOST,
            url: node.url,
            createdAt: node.createdAt,
            updatedAt: node.updatedAt,
            editor: toEdit(node.editor, node.lastEditedAt).editor,
          });
        }
        // A cut listing could hide the newest plan: more without a way to read it is a failure.
        if (pageInfo.hasNextPage && (pageInfo.endCursor === null || pageInfo.endCursor === after)) {
          throw new Error(`GitHub said #${issue} has more comments but gave no new cursor to read them with`);
        }
        after = pageInfo.hasNextPage ? pageInfo.endCursor : null;
      } while (after !== null);
      return comments;
    },
    async lastEditor(commentNodeId) {
      return toLastEdit(commentNodeId, await octokit.graphql(LAST_EDITOR_QUERY, { id: commentNodeId }));
    },
    async approvalState(issue, commentNodeId) {
      const variables = { owner, name: repo, number: issue };
      let answer: unknown;
      try {
        answer =
          commentNodeId === undefined
            ? await octokit.graphql(ISSUE_TEXT_QUERY, variables)
            : await octokit.graphql(APPROVAL_QUERY, { ...variables, comment: commentNodeId });
      } catch (error) {
        // A deleted comment is an answer, not a failure: the caller must learn that it is gone.
        answer = commentNodeId === undefined ? undefined : dataWithoutComment(error);
        if (answer === undefined) throw error;
      }
      const { node, repository } = approvalAnswer.parse(answer);
      const { title, body } = repository.issueOrPullRequest;
      const comment =
        commentNodeId === undefined
          ? {}
          : {
              commentBody: node?.body ?? null,
              commentEditor: node ? toEdit(node.editor, node.lastEditedAt).editor : null,
            };
      return { ...comment, title, body: body ?? '' };
    },
  };
}
