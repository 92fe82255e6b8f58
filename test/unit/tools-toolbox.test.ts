import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createReadTools } from '../../src/tools/read-tools.js';
import { createRunCommandTool } from '../../src/tools/run-command.js';
import { defineTool } from '../../src/tools/tool.js';
import type { Tool } from '../../src/tools/tool.js';
import { ToolError } from '../../src/tools/tool-error.js';
import { createToolbox } from '../../src/tools/toolbox.js';
import { createUpdateContextTool } from '../../src/tools/update-context.js';
import { createWriteTools } from '../../src/tools/write-tools.js';
import { makeRepo, removeDir } from './tools-git-fixture.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';

let repo: string;

beforeEach(() => {
  repo = makeRepo({ 'a.txt': 'alpha\n' });
});

afterEach(() => {
  removeDir(repo);
});

function executorTools(): Tool[] {
  return [
    ...createReadTools(repo),
    ...createWriteTools(repo, { protectedPaths: [] }),
    createRunCommandTool({
      allowedCommands: ['npm test'],
      timeoutMs: 1000,
      env: {},
      sandbox: createSandbox({ isolation: 'none', workTree: repo }),
    }),
    createUpdateContextTool('executor', () => 'staged'),
  ];
}

const echo = defineTool({
  name: 'echo',
  description: 'Echo text back.',
  schema: z.object({ text: z.string(), times: z.number().int().min(1).optional() }).strict(),
  async run({ text, times }) {
    return text.repeat(times ?? 1);
  },
});

const failing = (thrown: unknown): Tool =>
  defineTool({
    name: 'boom',
    description: 'Always fails.',
    schema: z.object({}).strict(),
    async run() {
      throw thrown;
    },
  });

describe('toolbox specs', () => {
  it('are sorted by name and identical byte for byte whatever the input order', () => {
    const tools = executorTools();
    const first = createToolbox(tools);
    const second = createToolbox([...executorTools()].reverse());
    expect(first.specs.map((s) => s.function.name)).toEqual([
      'edit_file',
      'list_files',
      'read_file',
      'run_command',
      'search',
      'update_context',
      'write_file',
    ]);
    expect(JSON.stringify(second.specs)).toBe(JSON.stringify(first.specs));
  });

  it('carry canonical JSON Schemas without a $schema dialect line', () => {
    const { specs } = createToolbox(executorTools());
    const text = JSON.stringify(specs);
    expect(text).not.toContain('$schema');
    const keysSorted = (value: unknown): boolean => {
      if (Array.isArray(value)) return value.every(keysSorted);
      if (value === null || typeof value !== 'object') return true;
      const keys = Object.keys(value);
      return keys.join('\0') === [...keys].sort().join('\0') && Object.values(value).every(keysSorted);
    };
    for (const spec of specs) {
      expect(spec.type).toBe('function');
      expect(keysSorted(spec.function.parameters)).toBe(true);
    }
  });

  it('describe the contract argument shapes and are valid JSON Schema', () => {
    const { specs } = createToolbox(executorTools());
    const byName = Object.fromEntries(specs.map((s) => [s.function.name, s.function.parameters]));
    const props = (name: string) => Object.keys((byName[name]?.properties ?? {}) as object);
    expect(props('list_files')).toEqual(['glob', 'path']);
    expect(props('read_file')).toEqual(['end_line', 'path', 'start_line']);
    expect(byName.read_file?.required).toEqual(['path']);
    expect(props('search')).toEqual(['glob', 'path', 'pattern']);
    expect(props('write_file')).toEqual(['content', 'path']);
    expect(props('edit_file')).toEqual(['new', 'old', 'path']);
    expect(props('run_command')).toEqual(['command']);
    expect(props('update_context')).toEqual(['outcome', 'result']);
    const ajv = new Ajv2020({ strict: false });
    const validateRead = ajv.compile(byName.read_file ?? {});
    expect(validateRead({ path: 'a.txt', start_line: 2 })).toBe(true);
    expect(validateRead({ start_line: 2 })).toBe(false);
    expect(validateRead({ path: 'a', extra: 1 })).toBe(false);
  });

  it('cannot be changed after creation', () => {
    const { specs } = createToolbox([echo]);
    expect(() => specs.push(specs[0] as never)).toThrow();
    expect(Object.isFrozen(specs[0]?.function.parameters)).toBe(true);
  });

  it('refuses two tools with the same name', () => {
    expect(() => createToolbox([echo, echo])).toThrow(/Duplicate tool name: echo/);
  });
});

describe('toolbox calls', () => {
  const toolbox = createToolbox([echo, failing(new ToolError('Path "x" is outside the workspace.'))]);

  it('runs a tool with validated arguments', async () => {
    expect(await toolbox.call('echo', '{"text":"hi","times":2}')).toEqual({ ok: true, output: 'hihi' });
  });

  it('names the available tools for an unknown one', async () => {
    const outcome = await toolbox.call('delete_repo', '{}');
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toBe('Error: Unknown tool "delete_repo". Available tools: boom, echo.');
  });

  it('reports invalid JSON', async () => {
    const outcome = await toolbox.call('echo', '{"text": hi}');
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toMatch(/^Error: The arguments for echo are not valid JSON \(.+\)\. Send a JSON object/);
  });

  it('names the bad argument when validation fails', async () => {
    const wrongType = await toolbox.call('echo', '{"text":"hi","times":"2"}');
    expect(wrongType.ok).toBe(false);
    expect(wrongType.output).toMatch(/^Error: Invalid arguments for echo: times: .*expected number/);
    const missing = await toolbox.call('echo', '{}');
    expect(missing.output).toMatch(/text: .*expected string/);
    const extra = await toolbox.call('echo', '{"text":"a","loud":true}');
    expect(extra.output).toMatch(/Unrecognized key: "loud"/);
    const notObject = await toolbox.call('echo', '[1]');
    expect(notObject.output).toMatch(/expected object/);
  });

  it('treats empty arguments as an empty object', async () => {
    const outcome = await toolbox.call('echo', '');
    expect(outcome.output).toMatch(/text: /);
  });

  it('returns ToolError messages as they are and never throws', async () => {
    expect(await toolbox.call('boom', '{}')).toEqual({
      ok: false,
      output: 'Error: Path "x" is outside the workspace.',
    });
    const unexpected = createToolbox([failing(new Error('disk on fire'))]);
    expect(await unexpected.call('boom', '{}')).toEqual({ ok: false, output: 'Error: boom failed: disk on fire' });
    const odd = createToolbox([failing('a string')]);
    expect(await odd.call('boom', '{}')).toEqual({ ok: false, output: 'Error: boom failed: a string' });
  });

  it('truncates every output once, to the configured limit', async () => {
    const small = createToolbox([echo], { outputLimit: 200 });
    const outcome = await small.call('echo', JSON.stringify({ text: 'x'.repeat(1000) }));
    expect(outcome.ok).toBe(true);
    expect(outcome.output.length).toBeLessThanOrEqual(200);
    expect(outcome.output).toMatch(/\[… \d+ characters omitted …\]/);
  });

  it('wires the real tools end to end through git', async () => {
    const box = createToolbox(executorTools());
    expect(await box.call('search', '{"pattern":"alp"}')).toEqual({ ok: true, output: 'a.txt:1: alpha' });
    expect((await box.call('read_file', '{"path":"../x"}')).ok).toBe(false);
    expect(await box.call('update_context', '{"result":"done it","outcome":"done"}')).toEqual({
      ok: true,
      output: 'staged',
    });
  });
});

describe('secrets in tool results', () => {
  const secret = 'fake-credential-value-0123456789';
  const mask = (text: string) => text.split(secret).join('***');
  // A result whose cut (head and tail kept, the middle dropped) would fall inside the secret.
  const leaky: Tool = defineTool({
    name: 'leaky',
    description: 'Returns a long text with a credential where the cut falls.',
    schema: z.object({}),
    run: () => Promise.resolve(`${'a'.repeat(110)}${secret}${'b'.repeat(400)}`),
  });

  it('masks before cutting, so no piece of a secret survives the cut', async () => {
    const unmasked = await createToolbox([leaky], { outputLimit: 300 }).call('leaky', '{}');
    // Without a redactor the cut leaves a fragment that a later mask of the whole secret cannot match.
    expect(mask(unmasked.output)).toContain(secret.slice(0, 10));
    const masked = await createToolbox([leaky], { outputLimit: 300, redact: mask }).call('leaky', '{}');
    expect(masked.ok).toBe(true);
    for (let i = 0; i + 6 <= secret.length; i++) expect(masked.output).not.toContain(secret.slice(i, i + 6));
  });
});
