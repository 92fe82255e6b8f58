import { describe, expect, it } from 'vitest';
import {
  amendmentIdFor,
  amendmentSealHolds,
  decodeAmendment,
  encodeAmendment,
  sealAmendment,
  type AmendmentRecord,
} from '../../src/record/amendment-record.js';

const record: AmendmentRecord = {
  v: 1,
  amendmentId: amendmentIdFor('0a1b2c3d', 2, { paths: ['notes/extra.md'] }),
  planId: '0a1b2c3d',
  planHash: 'a'.repeat(64),
  issue: 7,
  reason: 'The revision needs 1 more path.',
  delta: { paths: ['notes/extra.md'] },
  heldDiff: '+extra',
  status: 'proposed',
};

describe('the amendment record', () => {
  it('reads back what was written, sealed with the record key', () => {
    const sealed = sealAmendment(record, 'record-key-0123456789abcdef');
    expect(decodeAmendment(`### Amendment\n${encodeAmendment(sealed)}`)).toEqual(sealed);
    expect(amendmentSealHolds(sealed, 'record-key-0123456789abcdef')).toBe(true);
  });

  it('holds no seal when anything changed, when sealed with another key, or when unsealed', () => {
    const sealed = sealAmendment(record, 'record-key-0123456789abcdef');
    expect(amendmentSealHolds({ ...sealed, delta: { paths: ['**'] } }, 'record-key-0123456789abcdef')).toBe(false);
    expect(
      amendmentSealHolds({ ...sealed, status: 'approved', approvedBy: 'mallory' }, 'record-key-0123456789abcdef'),
    ).toBe(false);
    expect(amendmentSealHolds(sealed, 'another-key-0123456789abcdef')).toBe(false);
    expect(amendmentSealHolds(record, 'record-key-0123456789abcdef')).toBe(false);
  });

  it('is no amendment when its marker is not the last thing in the comment, or does not decode', () => {
    expect(decodeAmendment(`${encodeAmendment(record)}\nmore text`)).toBeUndefined();
    expect(decodeAmendment('<!-- plangate:amendment v1 AAAA -->')).toBeUndefined();
  });

  it('names one stop of one run: the same need at the same cycle gets the same id', () => {
    expect(amendmentIdFor('0a1b2c3d', 2, { paths: ['notes/extra.md'] })).toBe(record.amendmentId);
    expect(amendmentIdFor('0a1b2c3d', 3, { paths: ['notes/extra.md'] })).not.toBe(record.amendmentId);
  });
});
