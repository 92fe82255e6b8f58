/** The inputs that hold secrets, registered with the runner as secrets before anything else is read. */
export const secretInputs = [
  'github-token',
  'api-key',
  'planner-api-key',
  'executor-api-key',
  'record-secret',
] as const;
