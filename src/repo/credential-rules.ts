import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';

/**
 * The credential rules the commit gate reads staged text with: secretlint's recommended preset, a
 * maintained rule set (cloud keys, tokens of the major services, private keys, connection strings),
 * rather than patterns of plangate's own. Loaded only when a commit has something to read (see
 * credential-scan.ts), so a run that commits nothing never loads it.
 */

/**
 * Left out: `filter-comments` obeys `secretlint-disable` comments in the text it reads, so whoever
 * writes the file could switch the check off with one line.
 */
const commentFilter = '@secretlint/secretlint-rule-filter-comments';
const rulePrefix = '@secretlint/secretlint-rule-';

/**
 * Every rule of the preset but the comment filter, each registered on its own: secretlint ignores
 * `disabled` for a rule inside a preset. AWS access key ids are looked for too (the rule's default
 * looks only for secret access keys next to their variable name).
 */
const config: Parameters<typeof lintSource>[0]['options']['config'] = {
  rules: rules
    .filter((rule) => rule.meta.id !== commentFilter)
    .map((rule) =>
      rule.meta.id === `${rulePrefix}aws`
        ? { id: rule.meta.id, rule, options: { enableIDScanRule: true } }
        : { id: rule.meta.id, rule },
    ),
};

// The profiler is on by default and keeps a performance mark per rule and file for the life of
// the process; the gate reads every changed file after every command.
secretLintProfiler.setEnabled(false);

/** One credential found: which rule (`github/GITHUB_TOKEN`) and where, as offsets into the text. */
export interface CredentialMatch {
  rule: string;
  start: number;
  end: number;
}

/**
 * The credentials secretlint finds in `content`, the text `path` holds. Only the rule's id and
 * message id are kept, never its message: the message quotes what it found.
 */
export async function findCredentials(path: string, content: string): Promise<CredentialMatch[]> {
  const result = await lintSource({
    // The GCP rule reads a `.p12` file from disk by its name: the gate reads what is staged, never a
    // path on the host, so that rule sees no extension there (a .p12 is binary anyway).
    source: { filePath: path, ext: extensionOf(path), content, contentType: 'text' },
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  return result.messages.map((message) => ({
    rule: `${safeName(message.ruleId.replace(rulePrefix, ''))}/${safeName(message.messageId)}`,
    start: message.range[0],
    end: message.range[1],
  }));
}

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot).toLowerCase() : '';
  return ext === '.p12' ? '' : ext;
}

/** Rule and message ids are the rules' own constants; kept to their characters all the same. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 60);
}
