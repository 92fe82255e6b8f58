import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toolCall, type Reply } from '../fakes/scripted-model.js';
import type { Plan } from '../../src/machine/fields.js';
import { closeOpenWorlds, createWorld, git, type World } from './harness.js';
import { networkRulesHere } from './network-prerequisite.js';
import { REQUIRE_ACCOUNTS_ENV } from './runner-accounts.js';
import { botComments, commentEvent, toolResults } from './thread-helpers.js';

/**
 * The sealed network as part of the approved scope, through the bundled action with default inputs
 * but `allowed-domains`: the workflow's list is the ceiling, the approved plan's steps narrow it to
 * the destinations they name, and a revision that names another one `allowed-domains` allows stops
 * the run for an amendment a maintainer approves. A destination the plan did not name is refused
 * even though the workflow allows it; one the workflow does not allow is never reached, whatever the
 * plan names. Each destination is a server on its own loopback alias (not loopback to the rules),
 * so that what it received tells whether a command reached it.
 */

afterEach(closeOpenWorlds);
beforeEach(() => {
  hits.length = 0;
});

/** Addresses of this file alone (the sealed-network suite has its own), each with a server on port 8080. */
const one = '10.213.1.2';
const two = '10.213.1.3';
const four = '10.213.1.4';
const addresses = { one, two, four } as const;

/** Which server received a request: `one`, `two` or `four`. */
const hits: string[] = [];
const servers: http.Server[] = [];

const prerequisite =
  process.getuid?.() !== 0
    ? 'the test process is not root'
    : networkRulesHere()
      ? undefined
      : 'nftables is not installed';
if (prerequisite !== undefined && process.env[REQUIRE_ACCOUNTS_ENV] === '1')
  throw new Error(`The network scope's tests cannot run: ${prerequisite}.`);

beforeAll(() => {
  if (prerequisite !== undefined) return;
  for (const [name, address] of Object.entries(addresses)) {
    execFileSync('ip', ['-4', 'addr', 'replace', `${address}/32`, 'dev', 'lo']);
    const server = http.createServer((request, response) => {
      hits.push(name);
      request.resume();
      response.end(`reply-from-${name}-5d1e`);
    });
    server.listen(8080, address);
    servers.push(server);
  }
});

afterAll(() => {
  for (const server of servers) server.close();
  if (prerequisite !== undefined) return;
  for (const address of Object.values(addresses))
    execFileSync('ip', ['-4', 'addr', 'del', `${address}/32`, 'dev', 'lo']);
});

/** `node scripts/get.mjs <name>`: one request through the proxy in HTTP_PROXY, and what came back. */
const getScript = `
import http from 'node:http';
const which = process.argv[2];
const target = 'http://' + { one: '${one}', two: '${two}', four: '${four}' }[which] + ':8080/' + which;
const proxy = new URL(process.env.HTTP_PROXY ?? 'http://127.0.0.1:9');
const done = (what) => { console.log(which + ': ' + what); process.exit(0); };
http
  .get({ host: proxy.hostname, port: proxy.port, path: target, headers: { host: new URL(target).host } }, (res) => {
    let body = ''; res.on('data', (c) => (body += c)); res.on('end', () => done('status ' + res.statusCode + ' ' + body.slice(0, 40)));
  })
  .on('error', (e) => done(e.code));
`;

const get = (name: keyof typeof addresses) => `node scripts/get.mjs ${name}`;
const at = (name: keyof typeof addresses) => `${addresses[name]}:8080`;
const allowedCommands = { 'allowed-commands': 'node scripts/get.mjs *' };

/** A plan of one step that runs `get one` and `get two` and reaches what `network` names. */
function fetchPlan(network: string[]): Plan {
  return {
    steps: [
      {
        title: 'Fetch the data',
        files: ['data'],
        detail: `Run \`${get('two')}\` after the first one, and \`${get('four')}\`.`,
        verify: get('one'),
        ...(network.length ? { network } : {}),
      },
    ],
  };
}

async function world(script: Record<string, Reply[]>): Promise<{ w: World; issue: number }> {
  const w = await createWorld(script, { 'scripts/get.mjs': getScript });
  w.gh.setPermission('mona', 'maintain');
  w.gh.setPermission('reader', 'read');
  const issue = w.gh.addIssue({ title: 'Fetch', body: 'Fetch the data.', login: 'mona' }).number;
  return { w, issue };
}

async function run(w: World, issue: number, body: string, inputs: Record<string, string>, login = 'mona') {
  w.freshCheckout();
  return w.runAction(commentEvent(w, issue, login, body), { ...allowedCommands, ...inputs });
}

const progressOf = (w: World, issue: number) =>
  botComments(w, issue).find((b) => b.includes('<!-- plangate:progress')) ?? '';

describe.skipIf(prerequisite !== undefined)('the network the approved plan names', () => {
  const both = { 'allowed-domains': `${at('one')}\n${at('two')}` };

  for (const scope of ['enforce', 'report'])
    it(`reaches the destination the plan names, and refuses one allowed-domains allows that the plan does not name (scope: ${scope})`, async () => {
      // `scope: report` reports the paths and commands a run goes beyond; a connection let through could not be taken back.
      const inputs = { ...both, scope };
      const { w, issue } = await world({
        planner: [
          toolCall('update_context', {
            plan: fetchPlan([at('one')]),
            directive: `Run ${get('one')}, then ${get('two')}.`,
          }),
          toolCall('update_context', { summary: 'Fetched.' }),
        ],
        executor: [
          toolCall('run_command', { command: get('one') }),
          toolCall('run_command', { command: get('two') }),
          toolCall('update_context', { result: 'Fetched one; two was refused.', outcome: 'done' }),
        ],
      });
      await run(w, issue, '/plan fetch the data', inputs);
      expect(botComments(w, issue)[0]).toContain(`- Network: loopback and \`${at('one')}\``);
      const approved = await run(w, issue, '/approve', inputs);
      expect(approved.outputs.outcome, approved.stdout + approved.stderr).toBe('done');
      const [first = '', second = ''] = toolResults(w, 'executor');
      expect(first).toContain('one: status 200 reply-from-one-5d1e');
      expect(second).toContain('two: status 403');
      expect(second).toContain(`- ${at('two')}: 1 request refused (not allowed for this run)`);
      expect(second).toContain(
        `- \`${at('two')}\`: \`allowed-domains\` allows it, but the approved plan does not name it.`,
      );
      expect(second).toContain("a revised plan names it in a step's `network`");
      expect(hits).toEqual(['one']);
      expect(progressOf(w, issue)).toContain(`- \`${get('two')}\`: 10\\.213.1.3\\:8080`);
    });

  it('stops a revision that names another allowed destination for an amendment, and its approval reaches it in the same pull request', async () => {
    // The revision names a destination the workflow does not allow too: no amendment can grant it.
    const revised = fetchPlan([at('one'), at('two'), at('four')]);
    const { w, issue } = await world({
      planner: [
        toolCall('update_context', { plan: fetchPlan([at('one')]), directive: `Run ${get('two')}.` }),
        toolCall('update_context', { plan: revised, directive: `Run ${get('two')} again.` }),
        toolCall('update_context', { summary: 'Fetched.' }),
      ],
      executor: [
        toolCall('run_command', { command: get('two') }),
        toolCall('write_file', { path: 'data/two.txt', content: 'refused\n' }),
        toolCall('update_context', { result: `${at('two')} was refused; the step needs it.`, outcome: 'replan' }),
        toolCall('run_command', { command: get('two') }),
        toolCall('run_command', { command: get('four') }),
        toolCall('write_file', { path: 'data/two.txt', content: 'fetched\n' }),
        toolCall('update_context', { result: 'Fetched two.', outcome: 'done' }),
      ],
    });
    await run(w, issue, '/plan fetch the data', both);
    const stopped = await run(w, issue, '/approve', both);
    expect(stopped.outputs.outcome, stopped.stdout + stopped.stderr).toBe('amendment');
    expect(toolResults(w, 'executor')[0]).toContain('two: status 403');
    expect(hits).toEqual([]);
    const amendment = botComments(w, issue).find((b) => b.includes('### 📐 Amendment')) ?? '';
    const id = /### 📐 Amendment `([0-9a-f]{8})`/.exec(amendment)?.[1] ?? '';
    expect(amendment).toContain(`- Network: \`${at('two')}\``);
    expect(amendment).toContain('1 more network destination');
    expect(amendment).not.toContain(`\`${at('one')}\``);
    expect(amendment).not.toMatch(/- Network: .*10\.213\.1\.4/);
    expect(amendment).toContain(`names \`${at('four')}\`, which \`allowed-domains\` does not allow`);
    expect(amendment).toContain("add it to the workflow's `allowed-domains` first");

    // Neither a plain approval of the plan nor one by someone who may only read lets the run go on.
    const plain = await run(w, issue, '/approve', both);
    expect(plain.outputs.outcome).toBe('refused');
    expect(botComments(w, issue).at(-1)).toContain(`waits for amendment \`${id}\``);
    const byReader = await run(w, issue, `/approve ${id}`, both, 'reader');
    expect(byReader.outputs.outcome).toBe('refused');
    expect(hits).toEqual([]);

    const resumed = await run(w, issue, `/approve ${id}`, both);
    expect(resumed.outputs.outcome, resumed.stdout + resumed.stderr).toBe('done');
    const [fetched = '', refused = ''] = toolResults(w, 'executor').slice(-4);
    expect(fetched).toContain('two: status 200 reply-from-two-5d1e');
    expect(refused).toContain('four: status 403');
    expect(hits).toEqual(['two']);
    expect(w.gh.pulls()).toHaveLength(1);
    expect(git(w.origin, 'show', `refs/heads/${stopped.outputs.branch}:data/two.txt`)).toBe('fetched');
    expect(w.gh.pulls()[0]?.body).toContain(`- \`${id}\`, approved by @mona: network \`${at('two')}\``);
  });

  it('warns before approval of a destination allowed-domains does not allow, which stays unreachable after it', async () => {
    const inputs = { 'allowed-domains': at('one') };
    const plan: Plan = { steps: [{ title: 'Fetch four', verify: get('four'), network: [at('four')] }] };
    const { w, issue } = await world({
      planner: [
        toolCall('update_context', { plan, directive: `Run ${get('four')}.` }),
        toolCall('update_context', { summary: 'Could not fetch.' }),
      ],
      executor: [
        toolCall('run_command', { command: get('four') }),
        toolCall('update_context', { result: 'four was refused.', outcome: 'done' }),
      ],
    });
    await run(w, issue, '/plan fetch four', inputs);
    const planComment = botComments(w, issue)[0] ?? '';
    expect(planComment).toContain(
      `step 1: the network destination \`${at('four')}\` is not in \`allowed-domains\`, so it is left out of the approved scope and commands cannot reach it; to allow it, add \`${at('four')}\` to the workflow's \`allowed-domains\``,
    );
    expect(planComment).toContain('- Network: loopback only');
    const approved = await run(w, issue, '/approve', inputs);
    expect(approved.outputs.outcome, approved.stdout + approved.stderr).toBe('done');
    const [result = ''] = toolResults(w, 'executor');
    expect(result).toContain('four: status 403');
    expect(result).toContain(`- \`${at('four')}\`: not in \`allowed-domains\`, so no plan or amendment can open it.`);
    expect(hits).toEqual([]);
  });
});
