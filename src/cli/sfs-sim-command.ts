import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { SfsSimulator } from '../simulators/sfs/sfs-simulator.js';
import { portOption } from './port-option.js';
import type { CliIo } from './program.js';

export interface SfsSimCommandHooks {
  /** Called with the running simulator and a function that stops it (tests). */
  onStarted?: (simulator: SfsSimulator, stop: () => void) => void;
}

/** Where `kasa sfs-sim` keeps the register identities it learnt (check −905), next to its CA. */
export const IDENTITIES_FILE = 'sfs-sim-identities.json';

/**
 * `kasa sfs-sim --port P --ca-dir CA [--host 127.0.0.1] [--record-dir DIR]`: the SFS simulator as
 * its own process (docs/sfs.md). Prints the SOAP URL and the response-signing certificate path
 * (ADR 0008 §1) and runs until SIGINT/SIGTERM. The identities it learns for check −905 are kept
 * in `<ca-dir>/sfs-sim-identities.json`, so a restart does not make it looser (ADR 0422).
 */
export function registerSfsSimCommand(program: Command, io: CliIo, hooks: SfsSimCommandHooks = {}): void {
  program
    .command('sfs-sim')
    .description('run the eKasa SFS simulator (SOAP 1.2 + WS-Security) with fault injection under /__sim/')
    .requiredOption('--port <port>', 'TCP port to listen on (0 = any free port)', portOption)
    .requiredOption(
      '--ca-dir <dir>',
      'test CA folder: trusted for merchant certificates, created on first use',
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--record-dir <dir>', 'write every request and response to this folder')
    .action(async (options: { port: number; caDir: string; host: string; recordDir?: string }) => {
      const caDir = resolve(io.cwd, options.caDir);
      const recordDir = options.recordDir ? resolve(io.cwd, options.recordDir) : undefined;
      let simulator: SfsSimulator;
      try {
        simulator = await SfsSimulator.start({
          caDir,
          host: options.host,
          port: options.port,
          identitiesFile: join(caDir, IDENTITIES_FILE),
          ...(recordDir ? { recordDir } : {}),
          log: (line) => io.stderr(`${line}\n`),
        });
      } catch (e) {
        throw new Error(`sfs-sim cannot start on ${options.host}:${options.port}: ${(e as Error).message}`);
      }
      io.stdout(
        [
          `SFS simulator listening on ${simulator.url}`,
          `response signing certificate: ${simulator.signingCertPath}`,
          `  trust it with: kasa serve --sfs-url ${simulator.url} --sfs-trust ${simulator.signingCertPath}`,
          `fault injection and history: ${simulator.baseUrl}/__sim/ (docs/sfs.md)`,
          ...(recordDir ? [`recording requests and responses in ${recordDir}`] : []),
          '',
        ].join('\n'),
      );
      await new Promise<void>((done) => {
        // The simulator's own sockets may all be closed for a while (`/__sim/offline`): this
        // handle keeps the process alive until a signal, whatever the simulator does.
        const keepAlive = setInterval(() => undefined, 1 << 30);
        const stop = (): void => {
          clearInterval(keepAlive);
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          simulator.close().then(done, done);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        hooks.onStarted?.(simulator, stop);
      });
    });
}
