import { z } from 'zod';

/**
 * Repository roles in ascending order of trust, as GitHub's collaborator-permission API names them
 * in `role_name`. Comparing by rank lets one input say "at least write".
 */
export const roles = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const;
export const roleSchema = z.enum(roles);
export type RepoRole = z.infer<typeof roleSchema>;

/** True when `actual` carries at least the trust of `required`. */
export function hasRole(actual: RepoRole, required: RepoRole): boolean {
  return roles.indexOf(actual) >= roles.indexOf(required);
}
