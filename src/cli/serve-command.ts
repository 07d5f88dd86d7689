import type { Command } from 'commander';
import { markDirWarning } from '../adapters/backup/mark-dir.js';
import { checkDataDirAccess, explainDataDirError } from '../adapters/data-dir-access.js';
import { boundHeapGrowth } from '../adapters/runtime/heap-growth.js';
import { readBuildCommit } from '../compose/build-commit.js';
import { composeKasa } from '../compose/compose-kasa.js';
import { type DataDirSource, DEFAULT_DATA_DIR_TEXT } from '../config/data-dir.js';
import { addServeOptions, readServeConfig } from '../config/serve-config.js';
import { UsageError } from '../config/usage-error.js';
import type { CliIo } from './program.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const DATA_DIR_ORIGIN: Record<DataDirSource, string> = {
  flag: 'from --data-dir',
  env: 'from KASA_DATA_DIR',
  default: `default: ${DEFAULT_DATA_DIR_TEXT}; change it with --data-dir or KASA_DATA_DIR`,
};

/** `kasa serve` (what `npm start` runs): the register's HTTP service. */
export function registerServeCommand(program: Command, io: CliIo, version: string): void {
  const serve = program
    .command('serve')
    .description('run the register: HTTP API on 127.0.0.1:13083, admin page, API docs');
  addServeOptions(serve);
  serve.action(async (_opts, cmd: Command) => {
    const config = readServeConfig(cmd, io.env, io.cwd);
    // ADR 0802: the data dir is always said, so nobody wonders where a register's data went; the
    // version (and commit) too, so the journal of a service shows what runs after an upgrade.
    const commit = readBuildCommit();
    io.stdout(
      `kasa ${version}${commit ? ` (commit ${commit})` : ''}, data dir ${config.dataDir} (${DATA_DIR_ORIGIN[config.dataDirSource ?? 'default']})\n`,
    );
    // ADR 0804: marks inside the data dir would travel with copies of it (a service user's home).
    const marks = markDirWarning(config.dataDir, config.markDir);
    if (marks) io.stderr(`${marks}\n`);
    // ADR 1112: the committed heap stays near what the register holds (capability 13, figure 6).
    boundHeapGrowth();
    // A data dir this user cannot read or write is a configuration problem: exit 2 with the path
    // and the way out, so systemd does not restart it for ever (RestartPreventExitStatus=2).
    const denied = checkDataDirAccess(config.dataDir);
    if (denied) throw new UsageError(denied);
    const kasa = await composeKasa(config).catch((e: unknown) => {
      const why = explainDataDirError(e, config.dataDir);
      throw why ? new UsageError(why, { cause: e }) : e;
    });
    let address: string;
    try {
      address = await kasa.app.listen({ host: config.host, port: config.port });
    } catch (e) {
      await kasa.close();
      throw new Error(`cannot listen on ${config.host}:${config.port}: ${(e as Error).message}`);
    }
    const base = address.replace('://[::1]', '://[::1]');
    if (!LOOPBACK.has(config.host) && config.token === undefined) {
      const warning = `WARNING: kasa listens on ${config.host}, reachable from other machines, WITHOUT a token. Anyone on the network can issue fiscal documents. Use --token or bind 127.0.0.1.`;
      io.stderr(`\n${'!'.repeat(warning.length)}\n${warning}\n${'!'.repeat(warning.length)}\n\n`);
      kasa.logger.warn({ host: config.host }, 'listening on a non-loopback address without a token');
    }
    // The stop handlers are in place before the line is printed: a supervisor that stops kasa as
    // soon as it reads the line gets a graceful stop, never Node's default death by the signal.
    const stopped = new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        kasa.close().then(resolve, resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    io.stdout(
      `kasa listening on ${base}  admin ${base}/admin/  API docs ${base}/docs  CHDU ${kasa.targets.chdu}  SFS ${kasa.targets.sfs}  printer ${kasa.targets.printer}  QR payments (NOP) ${kasa.targets.nop}\n`,
    );
    await stopped;
  });
}
