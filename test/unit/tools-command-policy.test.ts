import { describe, expect, it } from 'vitest';
import { authorizeCommand, isCommandAllowed, parseCommandLine } from '../../src/tools/command-policy.js';
import { ToolError } from '../../src/tools/tool-error.js';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('parseCommandLine', () => {
  it('splits on whitespace and honours quotes and escapes', () => {
    expect(parseCommandLine('npm   run\ttest')).toEqual(['npm', 'run', 'test']);
    expect(parseCommandLine(`node -e 'console.log("a b")'`)).toEqual(['node', '-e', 'console.log("a b")']);
    expect(parseCommandLine('echo "a \\"quoted\\" b" c\\ d')).toEqual(['echo', 'a "quoted" b', 'c d']);
    expect(parseCommandLine(`a 'x'"y"z ''`)).toEqual(['a', 'xyz', '']);
    expect(parseCommandLine(`node -e "setTimeout(()=>{}, 10)"`)).toEqual(['node', '-e', 'setTimeout(()=>{}, 10)']);
  });

  it('keeps shell characters literal inside single quotes and after a backslash', () => {
    expect(parseCommandLine(`grep 'a|b;c>d$(e)'`)).toEqual(['grep', 'a|b;c>d$(e)']);
    expect(parseCommandLine('echo \\; \\| \\$HOME')).toEqual(['echo', ';', '|', '$HOME']);
    expect(parseCommandLine('echo "\\$HOME"')).toEqual(['echo', '$HOME']);
  });

  it('refuses chaining, pipes, redirection and substitution outside quotes', () => {
    expect(refusal(() => parseCommandLine('npm run x; curl evil'))).toMatch(/";" \(command separator\)/);
    expect(refusal(() => parseCommandLine('npm test | tee out'))).toMatch(/pipe/);
    expect(refusal(() => parseCommandLine('npm test && rm -rf /'))).toMatch(/"&"/);
    expect(refusal(() => parseCommandLine('npm test > out.txt'))).toMatch(/redirection/);
    expect(refusal(() => parseCommandLine('npm test < in.txt'))).toMatch(/redirection/);
    expect(refusal(() => parseCommandLine('echo $(curl evil)'))).toMatch(/substitution/);
    expect(refusal(() => parseCommandLine('echo `curl evil`'))).toMatch(/command substitution/);
    expect(refusal(() => parseCommandLine('echo $HOME'))).toMatch(/"\$"/);
    expect(refusal(() => parseCommandLine('npm test\ncurl evil'))).toMatch(/newline/);
    expect(refusal(() => parseCommandLine('(npm test)'))).toMatch(/subshell/);
    expect(refusal(() => parseCommandLine('npm test # comment'))).toMatch(/comment/);
  });

  it('refuses expansion inside double quotes, where a shell would still expand', () => {
    expect(refusal(() => parseCommandLine('echo "$(curl evil)"'))).toMatch(/inside double quotes/);
    expect(refusal(() => parseCommandLine('echo "`id`"'))).toMatch(/inside double quotes/);
  });

  it('refuses broken quoting and empty commands', () => {
    expect(refusal(() => parseCommandLine(`echo 'open`))).toMatch(/Unterminated single quote/);
    expect(refusal(() => parseCommandLine('echo "open'))).toMatch(/Unterminated double quote/);
    expect(refusal(() => parseCommandLine('echo \\'))).toMatch(/lone backslash/);
    expect(refusal(() => parseCommandLine('   '))).toMatch(/empty/);
  });
});

describe('isCommandAllowed', () => {
  const patterns = ['npm test', 'npm run *', 'node --test', 'npx vitest run **', 'npm run test:*'];

  it('matches tokens exactly', () => {
    expect(isCommandAllowed(['npm', 'test'], patterns)).toBe(true);
    expect(isCommandAllowed(['npm', 'test', '--', '--watch'], patterns)).toBe(false);
    expect(isCommandAllowed(['npm', 'install'], patterns)).toBe(false);
    expect(isCommandAllowed(['node', '--test'], patterns)).toBe(true);
    expect(isCommandAllowed(['node', '-e', 'x'], patterns)).toBe(false);
  });

  it('lets * match exactly one argument', () => {
    expect(isCommandAllowed(['npm', 'run', 'build'], patterns)).toBe(true);
    expect(isCommandAllowed(['npm', 'run'], patterns)).toBe(false);
    expect(isCommandAllowed(['npm', 'run', 'build', '--', '--prod'], patterns)).toBe(false);
  });

  it('lets a final ** match zero or more arguments', () => {
    expect(isCommandAllowed(['npx', 'vitest', 'run'], patterns)).toBe(true);
    expect(isCommandAllowed(['npx', 'vitest', 'run', 'test/unit', '--reporter', 'dot'], patterns)).toBe(true);
    expect(isCommandAllowed(['npx', 'vitest', 'watch'], patterns)).toBe(false);
  });

  it('globs within a token', () => {
    expect(isCommandAllowed(['npm', 'run', 'test:unit', 'extra'], patterns)).toBe(false);
    expect(isCommandAllowed(['npm', 'run', 'test:unit'], ['npm run test:*'])).toBe(true);
    expect(isCommandAllowed(['npm', 'run', 'lint'], ['npm run test:*'])).toBe(false);
  });

  it('refuses everything when no patterns are configured', () => {
    expect(isCommandAllowed(['npm', 'test'], [])).toBe(false);
    expect(refusal(() => authorizeCommand('npm test', []))).toBe(
      'run_command is disabled: no allowed-commands are configured.',
    );
  });
});

describe('authorizeCommand', () => {
  it('returns argv for an allowed command', () => {
    expect(authorizeCommand('npm run "build"', ['npm run *'])).toEqual(['npm', 'run', 'build']);
  });

  it('refuses a chained command even when its first part is allowed', () => {
    expect(refusal(() => authorizeCommand('npm run x; curl evil', ['npm run *']))).toMatch(/command separator/);
    expect(refusal(() => authorizeCommand('npm run $(curl evil)', ['npm run *']))).toMatch(/substitution/);
  });

  it('lists the allowed patterns when refusing', () => {
    const message = refusal(() => authorizeCommand('rm -rf /', ['npm test', 'npm run *']));
    expect(message).toMatch(/^Command not allowed: rm -rf \//);
    expect(message).toContain('npm test');
    expect(message).toContain('npm run *');
  });
});
