import { escapeProse } from '../text/markdown.js';

/**
 * The reply to a command that could not run (a setting to fix, a failed GitHub or git call): who
 * asked, what went wrong, what to do, and where the job log is. `what` and `fix` are prose whose
 * only markup is code spans (what a user wrote is shown as inline code), so nothing in them can turn
 * into a link, a mention or HTML. Secrets are cut out by the thread that posts it.
 */
export function renderFailure(failure: {
  author: string;
  command: string;
  what: string;
  fix?: string;
  runUrl?: string;
  /** The command had started (its flow threw): it "failed" rather than "could not run". */
  started?: boolean;
  /** A run the provider left: it "stopped", and can be resumed. */
  stopped?: boolean;
}): string {
  const { author, command, what, fix, runUrl, started, stopped } = failure;
  const link = runUrl ? `See the [job log](${runUrl}).` : '';
  const after = [fix ? escapeProse(fix) : '', link].filter(Boolean).join(' ');
  const said = what.trim();
  const head = `@${author} \`${command}\` ${stopped ? 'stopped' : started ? 'failed' : 'could not run'}: ${escapeProse(/[.?!]$/.test(said) ? said : `${said}.`)}`;
  return after ? `${head}\n\n${after}` : head;
}

/**
 * The reply to a command that could not run because of plangate's configuration, for someone who
 * cannot change it: that it needs a fix, and where a maintainer reads which (the failed step's
 * message says it). The setting and the value are not repeated to them.
 */
export function renderConfigurationFailure(failure: { author: string; command: string; runUrl?: string }): string {
  const { author, command, runUrl } = failure;
  const log = runUrl ? `the [job log](${runUrl})` : 'the job log';
  return `@${author} \`${command}\` could not run: plangate’s configuration on this repository needs a fix. A maintainer can read what to change in ${log}.`;
}
