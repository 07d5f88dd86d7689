import { resolve } from 'node:path';
import type { Command } from 'commander';
import { readDataDir } from './data-dir.js';
import { addOption, readOption } from './option-spec.js';
import { chduSpec, dataDirSpec } from './serve-config.js';
import type { ChduTarget } from './targets.js';

/** Where the `kasa chdu …` commands find the register: the same flags as `kasa serve` (ADR 0008 §13). */
export interface ChduCommandConfig {
  readonly dataDir: string;
  readonly chdu: ChduTarget;
  readonly indexPath: string;
}

export function addChduTargetOptions(cmd: Command): void {
  addOption(cmd, dataDirSpec);
  addOption(cmd, chduSpec);
}

export function readChduCommandConfig(
  cmd: Command,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): ChduCommandConfig {
  const given = readOption(cmd, chduSpec, env).value as ChduTarget | undefined;
  const { dataDir } = readDataDir(cmd, dataDirSpec, env, cwd);
  const chdu: ChduTarget = given
    ? given.kind === 'image'
      ? { ...given, path: resolve(cwd, given.path) }
      : given
    : { kind: 'image', path: resolve(dataDir, 'chdu.img') };
  return Object.freeze({ dataDir, chdu, indexPath: resolve(dataDir, 'index.sqlite') });
}
