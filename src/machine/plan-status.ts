/**
 * Where a plan stands as an artifact around the machine: waiting for approval, executing, done, or
 * replaced. The plan record carries it; the comments that show a plan word it.
 */
export const recordStatuses = [
  'proposed',
  'asking',
  'answered',
  'approved',
  'executing',
  'done',
  'aborted',
  'superseded',
  'cancelled',
] as const;
export type RecordStatus = (typeof recordStatuses)[number];
