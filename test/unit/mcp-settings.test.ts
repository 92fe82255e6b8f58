import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mcpSecretValues } from '../../src/config/mcp-servers.js';
import { readRepoConfig, repoConfigSchema, resolveMcpServers } from '../../src/config/settings.js';
import { makeTempDir, removeDir } from './tools-git-fixture.js';
import { coreLog, resetCoreLog } from '../helpers/core-mock.js';

/** The `mcp-servers` key of the config file, and how settings turns it into servers to start. */

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

beforeEach(() => {
  resetCoreLog();
});

const problems = (servers: unknown): string[] => {
  const parsed = repoConfigSchema.safeParse({ 'mcp-servers': servers });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('the mcp-servers schema', () => {
  it('accepts stdio and streamable HTTP servers', () => {
    const parsed = repoConfigSchema.parse({
      'mcp-servers': {
        docs: { command: 'node', args: ['tools/docs-server.mjs'], env: ['DOCS_API_KEY'] },
        'issue-tracker_2': { url: 'https://mcp.example.com/mcp' },
        local: { url: 'http://127.0.0.1:8080/mcp' },
        bare: { command: 'my-server' },
      },
    });
    expect(parsed['mcp-servers']).toEqual({
      docs: { command: 'node', args: ['tools/docs-server.mjs'], env: ['DOCS_API_KEY'] },
      'issue-tracker_2': { url: 'https://mcp.example.com/mcp' },
      local: { url: 'http://127.0.0.1:8080/mcp' },
      bare: { command: 'my-server' },
    });
  });

  it('refuses bad names, mixed or empty entries, unknown keys and other URL schemes', () => {
    expect(problems({ Docs: { command: 'x' } })).toEqual([
      'mcp-servers.Docs: is not a server name: names are 1 to 40 lower-case letters, digits, "-" or "_", starting with a letter or digit',
    ]);
    expect(problems({ ['a'.repeat(41)]: { command: 'x' } })).toHaveLength(1);
    expect(problems({ '-x': { command: 'x' } })).toHaveLength(1);
    expect(problems({ both: { command: 'x', url: 'https://e.example/mcp' } })).toEqual([
      'mcp-servers.both: give either command (a stdio server) or url (a streamable HTTP server), not both',
    ]);
    expect(problems({ none: {} }).join()).toContain('command');
    expect(problems({ typo: { command: 'x', environment: ['A'] } }).join()).toContain('environment');
    expect(problems({ ftp: { url: 'ftp://e.example/mcp' } })).toEqual([
      'mcp-servers.ftp.url: must be an http(s) URL such as https://mcp.example.com/mcp',
    ]);
    expect(problems({ blank: { command: '  ' } }).join()).toContain('command');
    expect(problems({ str: 'node server.js' })).toEqual([
      'mcp-servers.str: must be { command, args?, env? } for a stdio server or { url } for a streamable HTTP server',
    ]);
  });

  it("refuses to name the runner's own credentials or a malformed variable", () => {
    for (const name of ['GITHUB_TOKEN', 'INPUT_API-KEY', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN']) {
      expect(problems({ s: { command: 'x', env: [name] } }).join(), name).toContain(
        "is one of the runner's own credentials",
      );
    }
    expect(problems({ s: { command: 'x', env: ['NOT A NAME'] } }).join()).toContain(
      'must be an environment variable name',
    );
    expect(problems({ s: { command: 'x', env: ['SENTRY_AUTH_TOKEN', 'GITHUB_PERSONAL_ACCESS_TOKEN'] } })).toEqual([]);
  });

  it('reads the key from the config file and names the bad key in errors', () => {
    const dir = makeTempDir('plangate-mcp-config-');
    try {
      mkdirSync(path.join(dir, '.github'));
      writeFileSync(
        path.join(dir, '.github/plangate.yml'),
        'mcp-servers:\n  docs:\n    command: node\n    args: [server.mjs]\n',
      );
      expect(readRepoConfig(dir, '.github/plangate.yml')['mcp-servers']).toEqual({
        docs: { command: 'node', args: ['server.mjs'] },
      });
      writeFileSync(path.join(dir, '.github/plangate.yml'), 'mcp-servers:\n  docs:\n    url: ftp://x.example\n');
      expect(() => readRepoConfig(dir, '.github/plangate.yml')).toThrow(
        '`mcp-servers.docs.url` in .github/plangate.yml must be an http(s) URL such as https://mcp.example.com/mcp, not `ftp://x.example`.',
      );
    } finally {
      removeDir(dir);
    }
  });
});

describe('resolveMcpServers', () => {
  const own = ['ghs_ownTokenValue0123456789', 'sk-own-model-key-0123456789', ''];

  it('takes the named values from the environment, registers them as secrets and keeps the rest out', () => {
    const env = {
      DOCS_API_KEY: 'docs-key-value-0123',
      SHORT: 'abc',
      GITHUB_TOKEN: own[0],
      UNRELATED: 'nope-nope-nope',
    };
    const servers = resolveMcpServers(
      {
        docs: { command: 'node', args: ['s.mjs'], env: ['DOCS_API_KEY', 'SHORT'] },
        remote: { url: 'https://mcp.example.com/mcp' },
      },
      env,
      own,
    );
    expect(servers).toEqual([
      {
        name: 'docs',
        transport: 'stdio',
        command: 'node',
        args: ['s.mjs'],
        env: { DOCS_API_KEY: 'docs-key-value-0123', SHORT: 'abc' },
      },
      { name: 'remote', transport: 'http', url: 'https://mcp.example.com/mcp' },
    ]);
    // Masked in the log; a three-letter value would only garble it.
    expect(coreLog.secrets).toEqual(['docs-key-value-0123']);
    expect(mcpSecretValues(servers)).toEqual(['docs-key-value-0123', 'abc']);
  });

  it('keeps a server from starting when a named variable is unset', () => {
    const [server] = resolveMcpServers(
      { docs: { command: 'node', env: ['DOCS_API_KEY', 'OTHER'] } },
      { OTHER: 'other-value-123' },
      own,
    );
    expect(server).toMatchObject({
      name: 'docs',
      args: [],
      refusal: "the environment variable DOCS_API_KEY is not set; set it in the workflow step's env:",
    });
  });

  it("refuses to hand a server one of plangate's own credentials under another name", () => {
    const [server] = resolveMcpServers({ docs: { command: 'node', env: ['MY_KEY'] } }, { MY_KEY: own[1] }, own);
    expect(server).toMatchObject({ env: {} });
    expect(server?.transport === 'stdio' ? server.refusal : '').toContain(
      "MY_KEY holds one of plangate's own credentials",
    );
    expect(coreLog.secrets).toEqual([]);
  });

  it('resolves no servers when the key is absent', () => {
    expect(resolveMcpServers(undefined, {}, own)).toEqual([]);
  });
});
