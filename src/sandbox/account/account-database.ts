import { readFile } from 'node:fs/promises';
import type { Programs } from '../../repo/programs.js';
import { run, type RunFailure } from './run-helper.js';
import { SandboxError } from './sandbox-types.js';

/**
 * Lines of the system's account database, split into fields: `getent` (which sees NSS accounts),
 * else the local /etc file when there is no getent. No keys lists the database as far as the system
 * enumerates it; an unknown key gives no lines. SandboxError when getent fails otherwise.
 */
export async function accountEntries(
  database: 'passwd' | 'group',
  keys: string[],
  programs: Programs,
): Promise<string[][]> {
  let text: string;
  try {
    text = (await run(programs, 'getent', [database, ...keys])).stdout;
  } catch (error) {
    const failure = error as RunFailure;
    // getent exits 2 for "no such entry"; a missing getent leaves the local file.
    if (failure.code === 2) return [];
    if (failure.code !== 'ENOENT') {
      const what = keys.length > 0 ? `the ${database} entry of ${keys.join(', ')}` : `the ${database} entries`;
      throw new SandboxError(`Cannot look up ${what}: ${failure.detail}`);
    }
    const local = await readFile(`/etc/${database}`, 'utf8').catch(() => '');
    const lines = local.split('\n').filter((line) => line !== '');
    // Like getent, a key is a name or, when numeric, an id.
    const wanted = (fields: string[]) =>
      keys.some((key) => key === fields[0] || (/^\d+$/.test(key) && key === fields[2]));
    text = (keys.length > 0 ? lines.filter((line) => wanted(line.split(':'))) : lines).join('\n');
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split(':'));
}
