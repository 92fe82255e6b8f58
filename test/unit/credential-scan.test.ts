import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitAll } from '../../src/repo/branch.js';
import { mergeKeptOut, stageChecked, type KeptOutChange } from '../../src/repo/change-gate.js';
import { findCredentials } from '../../src/repo/credential-rules.js';
import { maxScannedBytes, newSide } from '../../src/repo/credential-scan.js';
import { createGit, type Git } from '../../src/repo/git.js';
import { keptOutNotice } from '../../src/run/cycle-commit.js';
import {
  fakeAwsAccessKeyId,
  fakeAwsSecretAccessKey,
  fakeGithubClassicToken,
  fakeGithubFineGrainedToken,
  fakeGithubOauthToken,
  fakeOpenAiKey,
  fakePrivateKey,
  fakeSlackBotToken,
  privateKeyBody,
} from '../helpers/fake-credentials.js';
import { git, makeRepo, makeTempDir, removeDir, writeFiles } from './tools-git-fixture.js';

/**
 * The commit gate's credential check: the rule set on its own (what it finds, what it leaves
 * alone), then through the gate on real git, where what is held back must stay out of the commit,
 * stay on disk, and be named by rule and line without a character of the secret.
 */

const identity = { name: 'plangate-bot', email: 'bot@plangate.invalid' };
const protectedPaths = ['.github/workflows/**'];
const privateKey = fakePrivateKey();

describe('the rule set', () => {
  it.for([
    ['an AWS access key id', `const id = "${fakeAwsAccessKeyId}";\n`, 'aws/AWSAccessKeyID'],
    ['an AWS secret access key', `aws_secret_access_key = ${fakeAwsSecretAccessKey}\n`, 'aws/AWSSecretAccessKey'],
    ['a classic GitHub token', `token: "${fakeGithubClassicToken}"\n`, 'github/GITHUB_TOKEN'],
    ['a GitHub OAuth token', `GH=${fakeGithubOauthToken}\n`, 'github/GITHUB_TOKEN'],
    ['a fine-grained GitHub token', `const pat = '${fakeGithubFineGrainedToken}';\n`, 'github/GITHUB_TOKEN'],
    ['a private key block', privateKey, 'privatekey/PrivateKey'],
    ['a Slack bot token', `SLACK_TOKEN=${fakeSlackBotToken}\n`, 'slack/SLACK_TOKEN'],
    ['an OpenAI key', `OPENAI_API_KEY=${fakeOpenAiKey}\n`, 'openai/OPENAI_TOKEN'],
  ] as const)('finds %s', async ([, content, rule]) => {
    const found = await findCredentials('src/config.ts', `// settings\n${content}`);
    expect(found.map((m) => m.rule)).toContain(rule);
    // Only the rule and where: nothing of what matched.
    for (const match of found) expect(Object.keys(match).sort()).toEqual(['end', 'rule', 'start']);
  });

  it('is not switched off by a secretlint-disable comment in the file it reads', async () => {
    const content = `// secretlint-disable\nconst t = "${fakeGithubClassicToken}"; // secretlint-disable-line\n`;
    expect((await findCredentials('src/a.ts', content)).map((m) => m.rule)).toEqual(['github/GITHUB_TOKEN']);
  });

  it.for([
    ['ordinary code', 'export function add(a: number, b: number): number {\n  return a + b;\n}\n'],
    [
      'a key read from the environment',
      'const key = process.env.OPENAI_API_KEY ?? "";\nconst t = process.env.GH_TOKEN;\n',
    ],
    [
      'commit ids and a uuid',
      'const sha = "da39a3ee5e6b4b0d3255bfef95601890afd80709";\nconst id = "3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8";\n',
    ],
    ['placeholders', 'OPENAI_API_KEY=sk-...\nGITHUB_TOKEN=ghp_xxxxxxxx\naws_secret_access_key = <your secret>\n'],
    ['AWS’s documented example key id', 'const example = "AKIAIOSFODNN7EXAMPLE";\n'],
    ['a public key', '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n'],
    ['a key block with no key in it', '-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n'],
  ] as const)('leaves %s alone', async ([, content]) => {
    expect(await findCredentials('src/clean.ts', content)).toEqual([]);
  });
});

describe('the new side of a patch', () => {
  it('keeps context and added lines in order, numbers the added ones, and drops removed lines and markers', () => {
    const patch = [
      'diff --git a/f b/f',
      'index 1..2 100644',
      '--- a/f',
      '+++ b/f',
      '@@ -1,3 +1,3 @@',
      ' one',
      '-two',
      '+TWO',
      ' ',
      '\\ No newline at end of file',
    ].join('\n');
    expect(newSide(patch)).toEqual({ content: 'one\nTWO\n', added: new Set([2]) });
  });

  it('reads a type change (two patches) as the new entry only', () => {
    const patch = [
      'diff --git a/l b/l',
      'deleted file mode 120000',
      '--- a/l',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-target',
      'diff --git a/l b/l',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/l',
      '@@ -0,0 +1,2 @@',
      '+a',
      '+b',
    ].join('\n');
    expect(newSide(patch)).toEqual({ content: 'a\nb', added: new Set([1, 2]) });
  });
});

describe('the commit gate', () => {
  let repo: string;
  let run: Git;
  const dirs: string[] = [];
  const fixture = `export const fixtureKey = "${fakeAwsAccessKeyId}";\nexport const other = 1;\n`;

  beforeEach(() => {
    repo = makeRepo({
      'README.md': '# widgets\n',
      'src/app.ts': 'export const app = 1;\n',
      'test/fixtures/keys.ts': fixture,
    });
    run = createGit(repo);
    dirs.push(repo);
  });

  afterEach(() => {
    for (const dir of dirs.splice(0)) removeDir(dir);
  });

  const read = (rel: string) => fs.readFileSync(path.join(repo, rel), 'utf8');
  const committed = (rel: string) => git(repo, 'show', `HEAD:${rel}`);
  const headFiles = () => git(repo, 'ls-tree', '-r', '--name-only', 'HEAD').trim().split('\n');
  const secrets = [fakeAwsAccessKeyId, fakeAwsSecretAccessKey, fakeGithubClassicToken, privateKeyBody(privateKey)];
  const expectNoSecretIn = (text: string) => {
    for (const secret of secrets) expect(text).not.toContain(secret);
  };

  it('holds back a new file that adds credentials, names rule and line, and leaves it on disk; the rest lands', async () => {
    const content = `export const config = {\n  id: "${fakeAwsAccessKeyId}",\n  secret_access_key: "${fakeAwsSecretAccessKey}",\n};\n`;
    writeFiles(repo, {
      'src/aws.ts': content,
      'src/farewell.ts': 'export const bye = 1;\n',
      'deploy/id_rsa': privateKey,
    });
    const { sha, keptOut } = await commitAll(run, 'cycle 1', identity, protectedPaths);
    expect(sha).toBeDefined();
    expect(keptOut).toEqual([
      {
        path: 'deploy/id_rsa',
        change: 'added',
        reason: 'holds a credential (privatekey/PrivateKey on line 1)',
        credential: true,
      },
      {
        path: 'src/aws.ts',
        change: 'added',
        reason: 'holds a credential (aws/AWSAccessKeyID on line 2, aws/AWSSecretAccessKey on line 3)',
        credential: true,
      },
    ]);
    expect(headFiles()).toEqual(['README.md', 'src/app.ts', 'src/farewell.ts', 'test/fixtures/keys.ts']);
    expect(read('src/aws.ts')).toBe(content);
    expect(read('deploy/id_rsa')).toBe(privateKey);
    expectNoSecretIn(JSON.stringify(keptOut));
    // Taken out, the file lands with the next commit.
    writeFiles(repo, { 'src/aws.ts': 'export const config = { id: process.env.AWS_ACCESS_KEY_ID };\n' });
    const next = await commitAll(run, 'cycle 2', identity, protectedPaths);
    expect(next.keptOut.map((c) => c.path)).toEqual(['deploy/id_rsa']);
    expect(headFiles()).toContain('src/aws.ts');
  });

  it('holds back an edit that adds a token to a tracked file: HEAD keeps the old file, the tree keeps the edit', async () => {
    const edited = `export const app = 1;\nexport const token = "${fakeGithubClassicToken}";\n`;
    writeFiles(repo, { 'src/app.ts': edited });
    const keptOut = await stageChecked(run, protectedPaths);
    expect(keptOut).toEqual([
      {
        path: 'src/app.ts',
        change: 'modified',
        reason: 'holds a credential (github/GITHUB_TOKEN on line 2)',
        credential: true,
      },
    ]);
    expect(git(repo, 'diff', '--cached', '--name-only')).toBe('');
    expect(read('src/app.ts')).toBe(edited);
  });

  it('lets an edit next to a key the base already holds land, and a rename of that file', async () => {
    writeFiles(repo, { 'test/fixtures/keys.ts': `${fixture}export const more = 2;\n` });
    expect(await stageChecked(run, protectedPaths)).toEqual([]);
    await commitAll(run, 'edit', identity, protectedPaths);
    fs.renameSync(path.join(repo, 'test/fixtures/keys.ts'), path.join(repo, 'test/fixtures/aws-keys.ts'));
    expect(await stageChecked(run, protectedPaths)).toEqual([]);
    await commitAll(run, 'rename', identity, protectedPaths);
    expect(committed('test/fixtures/aws-keys.ts')).toContain(fakeAwsAccessKeyId);
  });

  it('holds back a rename that adds a key, and the source’s deletion with it', async () => {
    fs.rmSync(path.join(repo, 'test/fixtures/keys.ts'));
    writeFiles(repo, { 'test/fixtures/aws.ts': `${fixture}export const token = "${fakeGithubClassicToken}";\n` });
    const { keptOut } = await commitAll(run, 'rename', identity, protectedPaths);
    expect(keptOut).toEqual([
      {
        path: 'test/fixtures/aws.ts',
        change: 'added',
        reason: 'holds a credential (github/GITHUB_TOKEN on line 3)',
        credential: true,
      },
      {
        path: 'test/fixtures/keys.ts',
        change: 'deleted',
        reason: 'renamed to test/fixtures/aws.ts, which is held back',
        credential: true,
      },
    ]);
    expect(committed('test/fixtures/keys.ts')).toBe(fixture);
    expect(headFiles()).not.toContain('test/fixtures/aws.ts');
  });

  it('reads binary files, files .gitattributes calls binary and symlink targets as text', async () => {
    writeFiles(repo, {
      '.gitattributes': 'blob.dat binary\n*.bin -diff\n',
      'blob.dat': Buffer.concat([Buffer.from([0, 1, 2, 0]), Buffer.from(`\n${fakeGithubClassicToken}\n`)]),
      'image.bin': Buffer.from(`\0PNG\n${privateKey}`),
    });
    fs.symlinkSync(fakeGithubOauthToken, path.join(repo, 'link'));
    const keptOut = await stageChecked(run, protectedPaths);
    expect(keptOut.map((c) => [c.path, c.reason])).toEqual([
      ['blob.dat', 'holds a credential (github/GITHUB_TOKEN on line 2)'],
      ['image.bin', 'holds a credential (privatekey/PrivateKey on line 2)'],
      ['link', 'holds a credential (github/GITHUB_TOKEN on line 1)'],
    ]);
    expect(git(repo, 'diff', '--cached', '--name-only').trim()).toBe('.gitattributes');
  });

  it('holds back a file too large to read, unread', async () => {
    writeFiles(repo, { 'logs/big.txt': 'x'.repeat(maxScannedBytes + 1) });
    expect(await stageChecked(run, protectedPaths)).toEqual([
      {
        path: 'logs/big.txt',
        change: 'added',
        reason: 'too large to check for credentials (over 8 MiB)',
        credential: true,
      },
    ]);
  });

  it('checks the first commit of a repository too', async () => {
    const fresh = makeTempDir();
    dirs.push(fresh);
    git(fresh, 'init', '-q', '-b', 'main');
    writeFiles(fresh, { 'a.txt': 'hello\n', '.env': `GITHUB_TOKEN=${fakeGithubClassicToken}\n` });
    const { sha, keptOut } = await commitAll(createGit(fresh), 'first', identity, protectedPaths);
    expect(sha).toBeDefined();
    expect(keptOut.map((c) => c.path)).toEqual(['.env']);
    expect(git(fresh, 'ls-tree', '-r', '--name-only', 'HEAD').trim()).toBe('a.txt');
  });
});

describe('what the executor is told', () => {
  const held: KeptOutChange = {
    path: 'src/aws.ts',
    change: 'added',
    reason: 'holds a credential (aws/AWSAccessKeyID on line 2)',
    credential: true,
  };
  const kept: KeptOutChange = {
    path: '.github/workflows/x.yml',
    change: 'added',
    reason: 'protected by .github/workflows/**',
  };

  it('says a held change is still on disk and lands once the credential is out, apart from the paths kept out for good', () => {
    const notice = keptOutNotice([kept, held]);
    expect(notice).toBe(
      [
        'plangate kept these changes out of the last commit, because nobody may change these paths through plangate; protected files were put back as they were:',
        '- .github/workflows/x.yml (added): protected by .github/workflows/**',
        'Do not try to change them another way; if the objective needs them changed, say so in your result.',
        '',
        'plangate held these changes back from the last commit, because they add what looks like a credential (a key, token or password) or could not be checked; they are still in the work tree, uncommitted:',
        '- src/aws.ts (added): holds a credential (aws/AWSAccessKeyID on line 2)',
        'Never commit a real credential: take it out (use a placeholder, or read it from the environment at run time) and the change lands with the next commit.',
      ].join('\n'),
    );
    expect(keptOutNotice([held])).not.toContain('nobody may change these paths');
  });

  it('keeps the mark through the run’s merged list', () => {
    expect(mergeKeptOut([held], [kept, { ...held, reason: 'later' }])).toEqual([kept, held]);
  });
});
