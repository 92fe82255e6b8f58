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

/**
 * Who can change plangate's configuration: the workflow file on the default branch and the
 * repository's secrets are theirs to edit. Only they are told which input or setting to change;
 * everyone else learns that something needs fixing, and the job log says what.
 */
export function canConfigure(role: RepoRole): boolean {
  return hasRole(role, 'maintain');
}

/** The least of two roles: the permission that lets someone use at least one of two commands. */
export function lowerRole(a: RepoRole, b: RepoRole): RepoRole {
  return hasRole(a, b) ? b : a;
}
