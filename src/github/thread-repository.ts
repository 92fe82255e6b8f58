import { statusOf } from './errors.js';
import type { Thread } from './thread-api.js';
import type { ThreadScope } from './thread-scope.js';
import { roleSchema } from '../config/permissions.js';
import { errorMessage } from '../text/error-message.js';

/**
 * The thread's repository-wide calls: who may command plangate, which branch is the default, and
 * the atomic ref create that lets exactly one of two racing runs win.
 */

/** The repository calls of a thread. */
export type RepositoryCalls = Pick<Thread, 'permissionOf' | 'defaultBranch' | 'createRef'>;

/** Repository calls for one repository; see Thread (thread-api.ts) for each call's promise. */
export function repositoryCalls({ octokit, owner, repo }: ThreadScope): RepositoryCalls {
  return {
    async permissionOf(login) {
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: login });
        // role_name distinguishes maintain and triage, which `permission` folds into write and read.
        const role = roleSchema.safeParse(data.role_name ?? data.permission);
        return role.success ? role.data : 'none';
      } catch {
        return 'none';
      }
    },
    async defaultBranch() {
      const { data } = await octokit.rest.repos.get({ owner, repo });
      return data.default_branch;
    },
    async createRef(ref, sha) {
      try {
        await octokit.rest.git.createRef({ owner, repo, ref, sha });
        return true;
      } catch (error) {
        // GitHub's answer for a ref that exists; after a lost answer that may be our own create.
        if (statusOf(error) === 422 && /already exists/i.test(errorMessage(error))) return false;
        throw error;
      }
    },
  };
}
