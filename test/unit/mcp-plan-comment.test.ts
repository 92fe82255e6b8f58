import { describe, expect, it } from 'vitest';
import { decodeRecord } from '../../src/record/plan-record.js';
import { makeRecord, planComment } from './record-fixture.js';

/** A server that did not start while planning is named under the plan, from the record alone. */

describe('MCP servers that did not start, in the plan comment', () => {
  it('names each one with its reason under the plan, in the record so re-rendering matches', () => {
    const record = makeRecord({
      overrides: {
        mcpFailures: [
          { server: 'broken', reason: 'the command "no-such-server" was not found' },
          { server: 'docs', reason: 'ping @maintainer <b>now</b>' },
        ],
      },
    });
    const body = planComment(record);
    const warning = body.indexOf('> [!WARNING]');
    expect(warning).toBeGreaterThan(body.indexOf('**Steps**'));
    expect(warning).toBeLessThan(body.indexOf('\n---\n'));
    expect(body).toContain('> MCP servers did not start, so planning went on without them:');
    expect(body).toContain('> - `broken`: `the command "no-such-server" was not found`');
    // A server's words stay inert: in a code span no mention pings and no markup renders.
    expect(body).toContain('> - `docs`: `ping @maintainer <b>now</b>`');

    const decoded = decodeRecord(body);
    expect(decoded.ok && decoded.record.mcpFailures).toEqual(record.mcpFailures);
    if (decoded.ok) expect(planComment(decoded.record)).toBe(body);
  });

  it('adds nothing when every server started', () => {
    const body = planComment(makeRecord());
    expect(body).not.toContain('[!WARNING]');
    expect(body).not.toContain('MCP');
  });

  it('keeps the note small however many servers failed', () => {
    const mcpFailures = Array.from({ length: 30 }, (_, i) => ({ server: `s${i}`, reason: 'x'.repeat(2_000) }));
    const body = planComment(makeRecord({ overrides: { mcpFailures } }));
    const note = body.slice(body.indexOf('> [!WARNING]'), body.indexOf('\n---\n'));
    expect(note).toContain('> - and 20 more (see the job log)');
    expect(note.length).toBeLessThan(5_000);
  });
});
