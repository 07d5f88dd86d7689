import type { Command } from 'commander';
import { composeKasa } from '../compose/compose-kasa.js';
import { addServeOptions, readServeConfig } from '../config/serve-config.js';
import type { CliIo } from './program.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** `kasa serve` (what `npm start` runs): the register's HTTP service. */
export function registerServeCommand(program: Command, io: CliIo): void {
  const serve = program
    .command('serve')
    .description('run the register: HTTP API on 127.0.0.1:13083, admin page, API docs');
  addServeOptions(serve);
  serve.action(async (_opts, cmd: Command) => {
    const config = readServeConfig(cmd, io.env, io.cwd);
    const kasa = await composeKasa(config);
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
    io.stdout(
      `kasa listening on ${base}  admin ${base}/admin/  API docs ${base}/docs  CHDU ${kasa.targets.chdu}  SFS ${kasa.targets.sfs}  printer ${kasa.targets.printer}  QR payments (NOP) ${kasa.targets.nop}\n`,
    );
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        kasa.close().then(resolve, resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  });
}
