import picomatch from 'picomatch';
import { ToolError } from './tool-error.js';

/**
 * run_command never uses a shell: the command line is split into argv here and executed directly,
 * so the allow-list sees exactly what runs. Anything a shell would have interpreted (chaining,
 * pipes, redirection, substitution, variables) is refused rather than passed on literally, because
 * a model that wrote it expected a shell and would misread the result.
 */

const OPERATOR_NAMES: Record<string, string> = {
  ';': 'command separator',
  '|': 'pipe',
  '&': 'background/and operator',
  '>': 'redirection',
  '<': 'redirection',
  '`': 'command substitution',
  $: 'variable or command substitution',
  '(': 'subshell',
  ')': 'subshell',
  '\n': 'newline',
  '\r': 'newline',
};

const NO_SHELL_HINT =
  'run_command uses no shell: give one command with its arguments, put literal special characters in single quotes, and run separate commands in separate calls.';

/**
 * Splits a command line into argv with POSIX-like quoting: single quotes are fully literal,
 * double quotes allow backslash escapes of `\`, `"`, `$` and backtick, and a backslash outside
 * quotes makes the next character literal. Throws ToolError for shell syntax and bad quoting.
 */
export function parseCommandLine(line: string): string[] {
  const argv: string[] = [];
  let current = '';
  let inToken = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i] as string;
    if (ch === ' ' || ch === '\t') {
      if (inToken) argv.push(current);
      current = '';
      inToken = false;
      i += 1;
      continue;
    }
    const operator = OPERATOR_NAMES[ch];
    if (operator !== undefined) {
      throw new ToolError(`Refused: ${JSON.stringify(ch)} (${operator}) outside quotes. ${NO_SHELL_HINT}`);
    }
    if (ch === '#' && !inToken) {
      throw new ToolError(`Refused: "#" would start a shell comment. ${NO_SHELL_HINT}`);
    }
    inToken = true;
    if (ch === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) throw new ToolError(`Unterminated single quote in command. ${NO_SHELL_HINT}`);
      current += line.slice(i + 1, close);
      i = close + 1;
    } else if (ch === '"') {
      const { text, next } = readDoubleQuoted(line, i + 1);
      current += text;
      i = next;
    } else if (ch === '\\') {
      const escaped = line[i + 1];
      if (escaped === undefined) throw new ToolError(`Command ends with a lone backslash. ${NO_SHELL_HINT}`);
      if (escaped === '\n' || escaped === '\r') {
        throw new ToolError(`Refused: line continuation; give the command on one line. ${NO_SHELL_HINT}`);
      }
      current += escaped;
      i += 2;
    } else {
      current += ch;
      i += 1;
    }
  }
  if (inToken) argv.push(current);
  if (argv.length === 0) throw new ToolError('The command is empty; give a command such as "npm test".');
  return argv;
}

/**
 * Reads a double-quoted span starting just after the opening quote. `$` and backtick are refused
 * here too: a shell would expand them inside double quotes, so accepting them literally would run
 * something other than what the model meant.
 */
function readDoubleQuoted(line: string, start: number): { text: string; next: number } {
  let text = '';
  let i = start;
  while (i < line.length) {
    const ch = line[i] as string;
    if (ch === '"') return { text, next: i + 1 };
    if (ch === '\\') {
      const escaped = line[i + 1];
      if (escaped === '\\' || escaped === '"' || escaped === '$' || escaped === '`') {
        text += escaped;
        i += 2;
        continue;
      }
      text += ch;
      i += 1;
      continue;
    }
    if (ch === '$' || ch === '`') {
      throw new ToolError(
        `Refused: ${JSON.stringify(ch)} inside double quotes would be expanded by a shell, and there is none. ${NO_SHELL_HINT}`,
      );
    }
    text += ch;
    i += 1;
  }
  throw new ToolError(`Unterminated double quote in command. ${NO_SHELL_HINT}`);
}

/**
 * Whether argv matches one of the configured command patterns. Each pattern is a command line
 * matched token by token: `*` is exactly one argument, a final `**` is any number of remaining
 * arguments, a token containing `*` is a glob over that one argument, and anything else must be
 * equal. A pattern that does not parse matches nothing, so a typo in the config fails closed.
 */
export function isCommandAllowed(argv: readonly string[], patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    let tokens: string[];
    try {
      tokens = parseCommandLine(pattern);
    } catch {
      return false;
    }
    return matchesTokens(argv, tokens);
  });
}

function matchesTokens(argv: readonly string[], tokens: readonly string[]): boolean {
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as string;
    if (token === '**' && i === tokens.length - 1) return true;
    const arg = argv[i];
    if (arg === undefined) return false;
    if (token === '*') continue;
    if (token.includes('*')) {
      if (!picomatch.isMatch(arg, token, { dot: true })) return false;
    } else if (token !== arg) {
      return false;
    }
  }
  return argv.length === tokens.length;
}

/**
 * Parses `command` and checks it against the allow-list in one step, returning the argv to run.
 * Throws ToolError naming why it was refused and what is allowed, so the model can adapt.
 */
export function authorizeCommand(command: string, allowedCommands: readonly string[]): string[] {
  if (allowedCommands.length === 0) {
    throw new ToolError('run_command is disabled: no allowed-commands are configured.');
  }
  const argv = parseCommandLine(command);
  if (!isCommandAllowed(argv, allowedCommands)) {
    const listed = allowedCommands.map((p) => `  ${p}`).join('\n');
    throw new ToolError(
      `Command not allowed: ${command}\nOnly commands matching these patterns may run (* is one argument, a final ** any number):\n${listed}`,
    );
  }
  return argv;
}
