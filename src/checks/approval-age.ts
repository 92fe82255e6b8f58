/**
 * How long an approval counts. An `/approve` comment speaks for its moment: a re-run of an old job
 * replays it, and a job that starts late (queued for days, resumed weeks later) would act on it
 * after its author may have changed their mind. Its age is GitHub's creation time of the comment
 * against the action's clock; one dated after that clock (the two disagree by a little) counts as
 * new. Only the approval expires: a plan that waited longer is approved by a fresh comment.
 */
export interface ApprovalAge {
  planId: string;
  /** When GitHub says the approval comment (or review) was created, as GitHub writes it. */
  createdAt: string;
  /** The action's clock, in milliseconds since the epoch. */
  now: number;
  /** `approval-max-age-hours`. */
  maxAgeHours: number;
}

const hourMs = 3_600_000;

/** Why the approval no longer counts, with what to do; undefined while it does. Fails closed on a time it cannot read. */
export function approvalExpiry(input: ApprovalAge): { reason: string; fix: string } | undefined {
  const { planId } = input;
  const created = Date.parse(input.createdAt);
  const fix = `If plan \`${planId}\` is still what you want, approve it again with a new comment: \`/approve ${planId}\`.`;
  if (Number.isNaN(created)) {
    return {
      reason: 'GitHub gave no creation time for this approval, so plangate cannot tell whether it expired.',
      fix,
    };
  }
  const age = input.now - created;
  if (age <= input.maxAgeHours * hourMs) return undefined;
  return {
    reason: `this approval expired: it was posted ${span(age)} ago (${input.createdAt}), and an approval counts for ${limit(input.maxAgeHours)} (\`approval-max-age-hours\`).`,
    fix,
  };
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** An age as a reader scans it: hours up to two days, whole days after. */
function span(ms: number): string {
  const hours = Math.floor(ms / hourMs);
  return hours < 48 ? plural(hours, 'hour') : plural(Math.floor(hours / 24), 'day');
}

/** The limit in hours, with the days it makes when it is whole days. */
function limit(hours: number): string {
  return hours % 24 === 0 && hours >= 48 ? `${plural(hours, 'hour')} (${hours / 24} days)` : plural(hours, 'hour');
}
