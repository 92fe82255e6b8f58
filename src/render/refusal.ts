import { escapeProse } from '../text/markdown.js';

/**
 * The reply to a command plangate will not carry out: who asked, why not, and what to do instead.
 * A refusal is never silent.
 */
export function renderRefusal(author: string, command: string, reason: string, fix: string): string {
  return [`@${author} \`${command}\` was not carried out: ${escapeProse(reason)}`, '', escapeProse(fix)].join('\n');
}

/**
 * The reply to someone without the permission a command needs: one sentence that they may not.
 * They cannot change who may, so the reply names no permission and no setting; the job log does.
 */
export function renderNotAllowed(author: string, command: string): string {
  return `@${author} you may not use \`${command}\` on this repository.`;
}
