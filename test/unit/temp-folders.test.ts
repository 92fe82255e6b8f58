import { describe, expect, it } from 'vitest';
import { parseTempFolder, tempFolderPrefix } from '../../src/repo/temp-folders.js';

describe('the names of a run’s folders in the temp dir', () => {
  it('carry the pid of the action that made them, for either kind', () => {
    for (const kind of ['work', 'sandbox'] as const) {
      expect(parseTempFolder(`${tempFolderPrefix(kind)}AbC123`)).toEqual({ kind, pid: process.pid });
    }
    expect(tempFolderPrefix('work')).toBe(`plangate-${process.pid}-`);
    expect(tempFolderPrefix('sandbox')).toBe(`plangate-sandbox-${process.pid}-`);
  });

  it('are told from every other name', () => {
    for (const name of [
      'plangate-AbC123',
      'plangate-0-AbC123',
      'plangate-12-AbC12',
      'plangate-12-AbC1234',
      'plangate-12-AbC-12',
      'x-plangate-12-AbC123',
      'plangate-sandbox-AbC123',
    ])
      expect(parseTempFolder(name), name).toBeUndefined();
  });
});
