/**
 * The tools the planner is offered, by name and in the order a request lists them: reading, staging
 * and the capability tools, never a write or a command tool.
 */
export const plannerToolNames = [
  'list_capabilities',
  'list_files',
  'read_file',
  'search',
  'update_context',
  'use_capability',
];
