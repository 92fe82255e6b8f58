import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The seal every record that steers a run carries (the plan record in a plan comment, the run
 * record in a progress comment): an HMAC-SHA256 with the repository's record key over the record's
 * canonical JSON, its own `sig` left out. Anyone can post a comment as `github-actions[bot]` from
 * another workflow of the repository; only plangate, holding the key, can seal what it says.
 */

/** Canonical JSON: object keys sorted, so equal content always hashes (and seals) equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** The seal of `record` (without its `sig`) under `key`. */
export function sealOf(record: Readonly<Record<string, unknown>>, key: string): string {
  const { sig: _sig, ...unsealed } = record;
  return createHmac('sha256', key).update(canonical(unsealed)).digest('hex');
}

/** True when `record.sig` is the seal of the rest of it under `key`; never without a key. */
export function sealHolds(record: Readonly<Record<string, unknown>>, key: string): boolean {
  if (!key || typeof record.sig !== 'string') return false;
  const expected = Buffer.from(sealOf(record, key), 'hex');
  const actual = Buffer.from(record.sig, 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
