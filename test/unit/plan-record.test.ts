import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Comment } from '../../src/github/thread.js';
import {
  sealIsValid,
  sealRecord,
  decodeRecord,
  encodeRecord,
  hashContext,
  hasRecordMarker,
  planIdFor,
  type PlanRecord,
} from '../../src/record/plan-record.js';
import { verifyPlanComment } from '../../src/record/verify.js';
import { makeRecord, samplePlan, planComment } from './record-fixture.js';

const botLogin = 'github-actions[bot]';

/** A marker holding arbitrary JSON, the way an attacker or a corrupted comment could write one. */
function rawMarker(json: unknown): string {
  return `<!-- plangate:record v1 ${deflateRawSync(Buffer.from(JSON.stringify(json))).toString('base64url')} -->`;
}

function comment(body: string, author = botLogin): Comment {
  return {
    id: 1,
    nodeId: 'IC_1',
    body,
    author,
    url: 'http://127.0.0.1/c/1',
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
  };
}

function payloadOf(marker: string): string {
  const match = /<!-- plangate:record v1 ([A-Za-z0-9_-]+) -->/.exec(marker);
  if (!match?.[1]) throw new Error('no marker');
  return match[1];
}

describe('encodeRecord / decodeRecord', () => {
  it('round-trips a record exactly', () => {
    const record = makeRecord();
    const decoded = decodeRecord(`some text\n${encodeRecord(record)}`);
    expect(decoded).toEqual({ ok: true, record });
  });

  it('writes one HTML comment line that hasRecordMarker recognises', () => {
    const marker = encodeRecord(makeRecord());
    expect(marker).toMatch(/^<!-- plangate:record v1 [A-Za-z0-9_-]+ -->$/);
    expect(hasRecordMarker(`text\n${marker}`)).toBe(true);
    // Only as the body's last line: a marker quoted earlier (say, in a code span) is not a record.
    expect(hasRecordMarker(`text ${marker}`)).toBe(false);
    expect(hasRecordMarker(`${marker}\nmore text`)).toBe(false);
    expect(hasRecordMarker('<!-- plangate:progress 0a1b2c3d -->')).toBe(false);
  });

  it('encodes equal records identically whatever their key order', () => {
    const record = makeRecord();
    const reversed = Object.fromEntries(Object.entries(record).reverse()) as PlanRecord;
    expect(encodeRecord(reversed)).toBe(encodeRecord(record));
  });

  it('reads only the marker on the body’s last line', () => {
    const first = makeRecord();
    const second = makeRecord({ overrides: { status: 'superseded', supersededBy: 'ffffffff' } });
    const decoded = decodeRecord(`${encodeRecord(first)}\ntext\n${encodeRecord(second)}`);
    expect(decoded.ok && decoded.record.status).toBe('superseded');
  });

  it('reports a body without a marker', () => {
    expect(decodeRecord('just a comment')).toEqual({ ok: false, reason: 'no plan record' });
  });

  it('refuses a payload that is not deflated JSON', () => {
    expect(decodeRecord('<!-- plangate:record v1 AAAA -->')).toEqual({
      ok: false,
      reason: 'the plan record is corrupt',
    });
    const notJson = deflateRawSync(Buffer.from('{not json')).toString('base64url');
    expect(decodeRecord(`<!-- plangate:record v1 ${notJson} -->`)).toEqual({
      ok: false,
      reason: 'the plan record is corrupt',
    });
  });

  it('refuses a payload that inflates beyond the size cap', () => {
    const bomb = deflateRawSync(Buffer.from(`"${' '.repeat(5_000_000)}"`)).toString('base64url');
    expect(decodeRecord(`<!-- plangate:record v1 ${bomb} -->`)).toEqual({
      ok: false,
      reason: 'the plan record is corrupt',
    });
  });

  const malformed: Array<[string, (r: Record<string, unknown>) => void]> = [
    ['a wrong version', (r) => (r.v = 2)],
    ['an uppercase plan id', (r) => (r.planId = 'ABCDEF12')],
    ['a short hash', (r) => (r.planHash = 'abc')],
    ['an unknown status', (r) => (r.status = 'merged')],
    ['a short base sha', (r) => (r.base = { ref: 'main', sha: 'abc123' })],
    ['no snapshot', (r) => delete r.snapshot],
    ['a snapshot in an unknown state', (r) => (r.snapshot = { ...(r.snapshot as object), state: 'waiting' })],
    ['an issue number of zero', (r) => (r.issue = 0)],
    ['usage with unknown keys', (r) => (r.usage = { entries: [], extra: 1 })],
  ];
  it.each(malformed)('refuses a record with %s', (_what, spoil) => {
    const json = JSON.parse(JSON.stringify(makeRecord())) as Record<string, unknown>;
    spoil(json);
    expect(decodeRecord(rawMarker(json))).toEqual({
      ok: false,
      reason: 'the plan record does not have the expected shape',
    });
  });

  it('accepts the same JSON unspoiled, so the refusals above are about the spoiled field', () => {
    expect(decodeRecord(rawMarker(makeRecord())).ok).toBe(true);
  });
});

describe('hashContext and planIdFor', () => {
  const content = { objective: 'Add a CHANGELOG', plan: samplePlan, directive: 'Create CHANGELOG.md.', history: [] };

  it('hashes independently of key order at every depth', () => {
    const shuffled = {
      history: [],
      directive: content.directive,
      plan: {
        risks: samplePlan.risks,
        steps: samplePlan.steps.map((step) => Object.fromEntries(Object.entries(step).reverse()) as typeof step),
        assumptions: samplePlan.assumptions,
      },
      objective: content.objective,
    };
    expect(hashContext(shuffled)).toBe(hashContext(content));
    expect(hashContext(content)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with any part of the context, including step order, clarifications and revisions', () => {
    const base = hashContext(content);
    expect(hashContext({ ...content, objective: 'Add a CHANGELOG.' })).not.toBe(base);
    expect(hashContext({ ...content, directive: 'Create CHANGELOG.md' })).not.toBe(base);
    expect(hashContext({ ...content, plan: { ...samplePlan, steps: [...samplePlan.steps].reverse() } })).not.toBe(base);
    expect(hashContext({ ...content, plan: { ...samplePlan, risks: [] } })).not.toBe(base);
    expect(
      hashContext({ ...content, clarifications: [{ question: 'Which format?', answer: 'Keep a Changelog' }] }),
    ).not.toBe(base);
    expect(hashContext({ ...content, revisions: [{ plan: samplePlan, feedback: 'smaller' }] })).not.toBe(base);
  });

  it('gives a stable 8-hex-digit id per command comment', () => {
    const id = planIdFor('octo/widgets', 7, 9001);
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(planIdFor('octo/widgets', 7, 9001)).toBe(id);
    expect(planIdFor('octo/widgets', 7, 9002)).not.toBe(id);
    expect(planIdFor('octo/widgets', 8, 9001)).not.toBe(id);
    expect(planIdFor('octo/gadgets', 7, 9001)).not.toBe(id);
  });
});

describe('verifyPlanComment', () => {
  const record = makeRecord();
  const body = planComment(record);

  it('believes an untouched comment by the bot', () => {
    expect(verifyPlanComment(comment(body), botLogin, planComment)).toEqual({ ok: true, record });
  });

  it('refuses the same body posted by someone else', () => {
    const verdict = verifyPlanComment(comment(body, 'mallory'), botLogin, planComment);
    expect(verdict).toEqual({ ok: false, reason: `the plan comment is not by ${botLogin}` });
  });

  it('refuses a comment whose visible plan was edited by one character', () => {
    const at = body.indexOf('Add CHANGELOG.md');
    expect(at).toBeGreaterThan(0);
    const edited = `${body.slice(0, at)}add${body.slice(at + 3)}`;
    expect(edited.length).toBe(body.length);
    const verdict = verifyPlanComment(comment(edited), botLogin, planComment);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toContain('was edited after plangate posted it');
  });

  it('refuses a record whose plan no longer matches its hash', () => {
    // The hash of the approved plan, beside a different first directive.
    const tampered = makeRecord();
    tampered.snapshot = {
      ...tampered.snapshot,
      context: { ...tampered.snapshot.context, directive: 'Delete everything.' },
    };
    // Rendered consistently, so only the hash can give it away.
    const verdict = verifyPlanComment(comment(planComment(tampered)), botLogin, planComment);
    expect(verdict).toEqual({ ok: false, reason: `plan ${record.planId} does not match its hash` });
  });

  it('refuses a record without a plan', () => {
    const unplanned = makeRecord();
    unplanned.snapshot = { ...unplanned.snapshot, context: { objective: 'x', history: [] } };
    const verdict = verifyPlanComment(comment(planComment(unplanned)), botLogin, planComment);
    expect(verdict.ok).toBe(false);
  });

  it('passes decoding failures through', () => {
    expect(verifyPlanComment(comment('no record here'), botLogin, planComment)).toEqual({
      ok: false,
      reason: 'no plan record',
    });
  });

  it('never believes a comment whose record payload was altered, at any position', () => {
    // Signed, as plangate posts every record: the hash and the rendering do not cover every field
    // (the thread's hash, for one), the signature does.
    const secret = 'record-secret-for-tests-0123456789';
    const signed = planComment(sealRecord(record, secret));
    expect(verifyPlanComment(comment(signed), botLogin, planComment, secret).ok).toBe(true);
    const payload = payloadOf(signed);
    const start = signed.indexOf(payload);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const positions = Array.from({ length: 40 }, (_, i) => Math.floor(((i + 0.5) * payload.length) / 40));
    for (const position of positions) {
      const original = payload[position] ?? 'A';
      const replacement = alphabet[(alphabet.indexOf(original) + 17) % alphabet.length] ?? 'A';
      const altered = signed.slice(0, start + position) + replacement + signed.slice(start + position + 1);
      expect(verifyPlanComment(comment(altered), botLogin, planComment, secret).ok, `position ${position}`).toBe(false);
    }
  });
});

describe('record signatures', () => {
  const secret = 'record-secret-for-tests-0123456789';

  it('signs with the secret and verifies only with the same secret', () => {
    const sealed = sealRecord(makeRecord(), secret);
    expect(sealed.sig).toMatch(/^[0-9a-f]{64}$/);
    expect(sealIsValid(sealed, secret)).toBe(true);
    expect(sealIsValid(sealed, 'another-secret-value-9876543210')).toBe(false);
    // Without a configured secret, signatures are not required.
    expect(sealIsValid(makeRecord(), '')).toBe(true);
  });

  it('detects any change to a signed record, and an unsigned record when a secret is set', () => {
    const sealed = sealRecord(makeRecord(), secret);
    expect(sealIsValid({ ...sealed, status: 'done' }, secret)).toBe(false);
    expect(sealIsValid({ ...sealed, requestedBy: 'mallory' }, secret)).toBe(false);
    expect(sealIsValid(makeRecord(), secret)).toBe(false);
  });

  it('re-signs on every seal, so a status change stays valid', () => {
    const sealed = sealRecord(makeRecord(), secret);
    const moved = sealRecord({ ...sealed, status: 'executing' }, secret);
    expect(sealIsValid(moved, secret)).toBe(true);
    expect(moved.sig).not.toBe(sealed.sig);
  });

  it('refuses an unsigned plan comment when a key is configured', () => {
    const record = makeRecord();
    const verdict = verifyPlanComment(comment(planComment(record)), botLogin, planComment, secret);
    expect(verdict).toMatchObject({
      ok: false,
      reason: expect.stringContaining(`plan ${record.planId} is not signed with this repository's record key`),
    });
  });
});
