/**
 * Git trailers on every commit plangate makes, so `git log` alone ties a change to the plan that
 * asked for it, the maintainer who approved it and the person who requested it (GitHub credits a
 * `Co-authored-by` trailer on the commit page).
 */

export interface TrailerInput {
  planId: string;
  approvedBy: string;
  requestedBy: string;
  /** plangate's own login: it is the commit author already, never a co-author of itself. */
  botLogin: string;
}

/** A login as git trailers may carry it: one line, no angle brackets. */
const oneLine = (value: string) => value.replace(/[\r\n<>]+/g, ' ').trim();

/** GitHub's noreply address for a login: attributes the commit without asking the API for an email. */
export function noreplyEmail(login: string): string {
  return `${oneLine(login)}@users.noreply.github.com`;
}

/** The trailer lines, in a fixed order. */
export function commitTrailers(input: TrailerInput): string[] {
  const trailers = [`Plangate-Plan: ${oneLine(input.planId)}`, `Approved-by: ${oneLine(input.approvedBy)}`];
  const requester = oneLine(input.requestedBy);
  if (requester !== '' && requester.toLowerCase() !== oneLine(input.botLogin).toLowerCase()) {
    trailers.push(`Co-authored-by: ${requester} <${noreplyEmail(requester)}>`);
  }
  return trailers;
}

/** Appends the trailers as the message's last paragraph, where `git interpret-trailers` looks for them. */
export function withTrailers(message: string, trailers: readonly string[]): string {
  if (trailers.length === 0) return message;
  return `${message.replace(/\s+$/, '')}\n\n${trailers.join('\n')}`;
}
