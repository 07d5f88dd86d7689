import { isAbsolute, join, resolve } from 'node:path';
import type { OptionSpec } from './option-spec.js';
import { ConfigError, readOption } from './option-spec.js';

/** Where the data dir came from, for the start-up line. */
export type DataDirSource = 'flag' | 'env' | 'default';

/** What `--data-dir` says when it is not given (help text and docs/install.md). */
export const DEFAULT_DATA_DIR_TEXT = '$XDG_DATA_HOME/kasa, else ~/.local/share/kasa';

/**
 * The default data dir: one fixed place per user, never the folder kasa happens to be started in
 * (ADR 0802). The XDG Base Directory rule: `$XDG_DATA_HOME/kasa` when that variable holds an
 * absolute path, else `$HOME/.local/share/kasa`. The service sets `KASA_DATA_DIR=/var/lib/kasa`
 * in its unit instead (packaging/kasa.service).
 *
 * @throws ConfigError (exit 2) when neither variable gives an absolute path: the user must say
 *   where the register's data live.
 */
export function defaultDataDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_DATA_HOME;
  // XDG Base Directory Specification: a relative XDG_DATA_HOME is invalid and must be ignored.
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'kasa');
  const home = env.HOME;
  if (home !== undefined && home !== '' && isAbsolute(home)) return join(home, '.local', 'share', 'kasa');
  throw new ConfigError(
    'no data dir: neither XDG_DATA_HOME nor HOME is set to an absolute path; give --data-dir or KASA_DATA_DIR',
  );
}

/**
 * The data dir of a command: `--data-dir`, else `KASA_DATA_DIR`, else {@link defaultDataDir}; a
 * relative path is taken from `cwd`.
 */
export function readDataDir(
  cmd: Parameters<typeof readOption>[0],
  spec: OptionSpec<string>,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): { dataDir: string; source: DataDirSource } {
  const given = readOption(cmd, spec, env);
  if (given.source === 'default') return { dataDir: defaultDataDir(env), source: 'default' };
  return { dataDir: resolve(cwd, given.value as string), source: given.source };
}
