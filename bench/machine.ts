import { execFileSync } from 'node:child_process';
import os from 'node:os';

/**
 * The machine a run happened on. Absolute figures mean little across machines (and even across
 * runs on a shared one), so the report pins them to the hardware and software that produced them.
 */
export interface MachineInfo {
  nproc: number;
  memoryGiB: number;
  cpuModel: string;
  node: string;
  git: string;
  os: string;
}

export function machineInfo(): MachineInfo {
  return {
    nproc: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    git: execFileSync('git', ['--version'], { encoding: 'utf8' }).trim(),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}
