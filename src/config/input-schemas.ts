import { z } from 'zod';
import { inputDefaults } from './defaults.js';
import { SettingsError } from './settings-error.js';
import { code } from '../text/markdown.js';
import { commandPrefixPattern } from '../text/comment-command.js';

/**
 * What each kind of action input accepts, as zod schemas over the raw string GitHub hands over.
 * Apart from the reader (settings.ts) so the CLI can accept exactly what the action accepts, and so
 * each rule (a git ref prefix, a secret-looking variable name) is written once.
 */

/**
 * A model endpoint or MCP server is reached over HTTP; "localhost:8080" parses as a URL with scheme
 * "localhost:". Exported so the CLI's --base-url and PLANGATE_BASE_URL accept exactly what the action does.
 */
export const httpUrlSchema = httpUrl(inputDefaults['base-url']);

/** An http(s) URL; the error shows `example`, so the fix is plain from the message. */
export function httpUrl(example: string) {
  return z.url({ protocol: /^https?$/, error: `must be an http(s) URL such as ${example}` });
}

/** How commands are kept from the action's secrets; the action's input `command-isolation`. */
/**
 * Where `/plan` on a pull request plangate did not open puts its work: a stacked pull request into
 * the head branch (the default), or commits on the head branch itself. plangate's own pull requests
 * always get the commits on their branch.
 */
export const pullRequestModeSchema = z.enum(['stacked', 'same-branch'], 'must be stacked or same-branch');

export const commandIsolationSchema = z.enum(['account', 'none'], 'must be account or none');
/** Whether the sandbox's network is closed to all but the allowed destinations (`sealed`) or left as it is (`open`). */
export const networkModeSchema = z.enum(['sealed', 'open'], 'must be sealed or open');
export type NetworkMode = z.infer<typeof networkModeSchema>;
/** Whether the approved scope is held where the run acts (`enforce`) or only reported (`report`). */
export const scopeModeSchema = z.enum(['enforce', 'report'], 'must be enforce or report');
export type ScopeMode = z.infer<typeof scopeModeSchema>;

/** The action's input `command-isolation` as a value. */
export type CommandIsolation = z.infer<typeof commandIsolationSchema>;

/** A branch prefix git accepts in front of `<issue>-<plan id>`. */
export const branchPrefixSchema = z
  .string()
  .regex(/^[A-Za-z0-9._/-]*$/, 'may only hold letters, digits, ".", "_", "-" and "/"')
  // git's ref rules that a prefix can break: no "..", "//", leading "/" or "-", no component that starts with "." or ends in ".lock".
  .refine((v) => !/\.\.|\/\/|^[/-]|(^|\/)\.|\.lock\//.test(v), 'is not a valid git ref prefix');

/** The config file path's segments without "." ones; checked below on the path as written, so an error shows it. */
const configFileParts = (path: string) => path.split('/').filter((part) => part !== '.');

/**
 * The config file is read from a commit's tree by path, so the path must stay inside the repository:
 * relative and without "..". "." segments are dropped (git would read a leading "./" relative to its
 * working directory); backslashes are refused rather than guessed at.
 */
export const configFileSchema = z
  .string()
  .trim()
  .transform((v) => v || inputDefaults['config-file'])
  .refine(
    (v) =>
      configFileParts(v).length > 0 &&
      configFileParts(v).every((part) => part !== '' && part !== '..' && !part.includes('\\')),
    `must be a relative path to a file inside the repository, without "..", such as ${inputDefaults['config-file']}`,
  )
  .transform((v) => configFileParts(v).join('/'));

/** Labels come one a line or comma-separated; GitHub treats names case-insensitively, so duplicates go. */
export function labelList(values: string[]): string[] {
  const names = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  const seen = new Set<string>();
  return names.filter((name) => {
    if (name.length > 50)
      throw new SettingsError(
        `the ${code('pr-labels')} input has a label longer than GitHub's 50 characters: ${code(name.slice(0, 60))}…`,
      );
    const key = name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A whole number in `[min, max]`, written as digits only. */
export function wholeNumber(min: number, max: number) {
  const rule = `must be a whole number from ${min} to ${max}`;
  return z.string().regex(/^\d+$/, rule).transform(Number).pipe(z.number().int(rule).min(min, rule).max(max, rule));
}

/** An optional positive decimal: empty means no limit. */
export const optionalPositive = z
  .string()
  .trim()
  .regex(/^(\d+(\.\d+)?)?$/, 'must be a positive number, or empty for no limit')
  .transform((v) => (v === '' ? undefined : Number(v)))
  .pipe(z.number().positive('must be greater than 0').optional());

/** A limit that is on by default: a positive number, or `none` for no limit (the choice a workflow must name). */
export const limitOrNone = z
  .string()
  .trim()
  .regex(/^(none|\d+(\.\d+)?)$/, 'must be a positive number, or none for no limit')
  .transform((v) => (v === 'none' ? undefined : Number(v)))
  .pipe(z.number().positive('must be greater than 0').optional());

/** YAML 1.2 booleans, as GitHub's own `getBooleanInput` reads them. */
export const booleanInput = z
  .enum(['true', 'True', 'TRUE', 'false', 'False', 'FALSE'], 'must be true or false')
  .transform((v) => v.toLowerCase() === 'true');

/** Secrets-bearing names are refused outright: naming one would hand it to every command. */
export const envNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
  .refine(
    (name) =>
      !/^(GITHUB_TOKEN|INPUT_|ACTIONS_|ACTIONS_RUNTIME|RUNNER_TOKEN)/i.test(name) &&
      !/(TOKEN|SECRET|KEY|PASSWORD|CREDENTIAL)/i.test(name),
    'looks like a secret, which commands must never receive',
  );

/**
 * `command-prefix`, read untrimmed: empty for none (commands are `/plan`, `/approve`), else `/` and
 * one word, so `/plangate plan` reads as prefix and command. A value of spaces only is a mistake,
 * not a way of saying "none": it is refused rather than guessed at.
 */
export const commandPrefixSchema = z
  .string()
  .refine(
    (v) => v === '' || v.trim() !== '',
    'is only spaces: leave it empty for commands such as /plan, or write a prefix such as /plangate',
  )
  .transform((v) => v.trim())
  .refine(
    (v) => v === '' || commandPrefixPattern.test(v),
    'must be / followed by one word of letters, digits, - or _ (such as /plangate), with no space inside',
  );

/** The raw value trimmed, or `fallback` (an entry of the defaults table) when nothing is left. */
export const withDefault = (fallback: string) => z.string().transform((v) => v.trim() || fallback);
