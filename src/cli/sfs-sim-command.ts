import { resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { CA_CERT_FILE } from '../adapters/pki/test-ca.js';
import { SfsSimulator } from '../simulators/sfs/sfs-simulator.js';

export interface SfsSimCommandDeps {
  /** Where the start banner goes (stdout by default). */
  out?: (line: string) => void;
  /** Where operational problems go (stderr by default). */
  err?: (line: string) => void;
  /** Called with the running simulator (tests close it). */
  onStarted?: (simulator: SfsSimulator) => void;
  /** Close on SIGINT/SIGTERM (default true; tests turn it off). */
  handleSignals?: boolean;
}

function port(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n > 65535)
    throw new InvalidArgumentError('a TCP port 0–65535 (0 = any free port)');
  return n;
}

/**
 * `kasa sfs-sim --port P --ca-dir CA [--host 127.0.0.1] [--record-dir DIR]`: the SFS simulator as
 * its own process (docs/sfs.md). Prints the SOAP URL and the response-signing certificate path
 * (DECISIONS 1) and runs until SIGINT/SIGTERM.
 */
export function registerSfsSimCommand(program: Command, deps: SfsSimCommandDeps = {}): Command {
  const out = deps.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = deps.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  return program
    .command('sfs-sim')
    .description('run the eKasa SFS simulator (SOAP 1.2 + WS-Security) with fault injection under /__sim/')
    .requiredOption('--port <port>', 'TCP port to listen on (0 = any free port)', port)
    .requiredOption(
      '--ca-dir <dir>',
      'test CA folder: trusted for merchant certificates, created on first use',
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--record-dir <dir>', 'write every request and response to this folder')
    .action(async (options: { port: number; caDir: string; host: string; recordDir?: string }) => {
      const simulator = await SfsSimulator.start({
        caDir: resolve(options.caDir),
        host: options.host,
        port: options.port,
        ...(options.recordDir ? { recordDir: resolve(options.recordDir) } : {}),
        log: err,
      });
      out(`SFS simulator listening on ${simulator.url}`);
      out(`response signing certificate: ${simulator.signingCertPath}`);
      out(`  trust it with: kasa serve --sfs-url ${simulator.url} --sfs-trust ${simulator.signingCertPath}`);
      out(`  (or trust the whole test CA: --sfs-trust ${resolve(options.caDir, CA_CERT_FILE)})`);
      out(`fault injection and history: ${simulator.baseUrl}/__sim/ (see docs/sfs.md)`);
      if (options.recordDir) out(`recording requests and responses in ${resolve(options.recordDir)}`);
      deps.onStarted?.(simulator);
      if (deps.handleSignals ?? true) {
        const stop = () => {
          simulator.close().then(
            () => out('SFS simulator stopped'),
            (e: unknown) => err(`sfs-sim: ${String(e)}`),
          );
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      }
    });
}
