import { resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { integerIn } from '../config/option-spec.js';
import { UsageError } from '../config/usage-error.js';
import { EscPosPrinterSim } from '../simulators/printer/escpos-printer-sim.js';
import { startPrinterControl } from '../simulators/printer/printer-sim-control.js';
import type { CliIo } from './program.js';

/** Test seam: see the running simulator, and stop it without a signal. */
export interface PrinterSimLifecycle {
  started?: (sim: EscPosPrinterSim, control: { port: number } | undefined) => void;
  stop?: Promise<void>;
}

const parse =
  <T>(f: (t: string) => T) =>
  (t: string): T => {
    try {
      return f(t);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
  };

const chars = (t: string): 32 | 42 | 48 => {
  if (t !== '32' && t !== '42' && t !== '48') throw new Error('chars must be 32, 42 or 48');
  return Number(t) as 32 | 42 | 48;
};

/**
 * `kasa printer-sim --port P --out DIR [--chars 48] [--control-port C] [--buffer-bytes 4096]
 * [--rows-per-second 2000]`: an ESC/POS printer on TCP that writes every job as text, PNG and raw
 * bytes to DIR (docs/printing.md).
 */
export function registerPrinterSimCommand(
  program: Command,
  io: CliIo,
  lifecycle: PrinterSimLifecycle = {},
): void {
  const cmd = program
    .command('printer-sim')
    .description('ESC/POS receipt printer simulator on TCP: decodes each job to text and PNG')
    .addOption(
      new Option('--port <number>', 'TCP port (0 = any free port; printers use 9100)')
        .argParser(parse(integerIn(0, 65535, 'port')))
        .makeOptionMandatory(),
    )
    .requiredOption('--out <dir>', 'folder for the jobs: NNNNNN.txt, .png and .bin')
    .addOption(new Option('--host <address>', 'listen address').default('127.0.0.1'))
    .addOption(
      new Option('--chars <n>', 'characters per line in font A: 32 (58 mm), 42 or 48 (80 mm)')
        .argParser(parse(chars))
        .default(48),
    )
    .addOption(
      new Option('--buffer-bytes <n>', 'receive buffer: what a power cut loses (256-1048576)')
        .argParser(parse(integerIn(256, 1_048_576, 'buffer bytes')))
        .default(4096),
    )
    .addOption(
      new Option('--rows-per-second <n>', 'print speed in dot rows a second (2000 = 250 mm/s)')
        .argParser(parse(integerIn(1, 1_000_000, 'rows per second')))
        .default(2000),
    )
    .option(
      '--pty <path>',
      'also serve on a pseudo-terminal linked at PATH, as a serial printer (needs socat)',
    )
    .addOption(
      new Option(
        '--control-port <number>',
        'HTTP control port (paper, cover, off-line, overheat, drop)',
      ).argParser(parse(integerIn(0, 65535, 'control port'))),
    );
  cmd.action(async (opts: SimOptions) => {
    const sim = await EscPosPrinterSim.start({
      host: opts.host,
      port: opts.port,
      outDir: resolve(io.cwd, opts.out),
      charsPerLine: opts.chars,
      bufferBytes: opts.bufferBytes,
      rowsPerSecond: opts.rowsPerSecond,
    }).catch((e: unknown) => {
      throw new UsageError(`--port ${opts.port}: ${(e as Error).message}`, { cause: e });
    });
    const closers: Array<() => Promise<void>> = [() => sim.close()];
    try {
      let controlPort: number | undefined;
      if (opts.controlPort !== undefined) {
        const server = await startPrinterControl(sim, opts.controlPort, opts.host);
        controlPort = (server.address() as { port: number }).port;
        closers.unshift(() => new Promise<void>((r) => server.close(() => r())));
      }
      if (opts.pty) await sim.bridgePty(resolve(io.cwd, opts.pty));
      io.stdout(
        `printer-sim listening on ${sim.target}  --printer ${sim.target}${opts.chars === 48 ? '' : `?chars=${opts.chars}`}` +
          `${opts.pty ? `  pty ${resolve(io.cwd, opts.pty)}` : ''}` +
          `${controlPort === undefined ? '' : `  control http://${opts.host}:${controlPort}/state`}` +
          `  out ${resolve(io.cwd, opts.out)}\n`,
      );
      lifecycle.started?.(sim, controlPort === undefined ? undefined : { port: controlPort });
      await (lifecycle.stop ?? untilSignal());
    } finally {
      for (const close of closers) await close();
    }
  });
}

interface SimOptions {
  port: number;
  out: string;
  host: string;
  chars: 32 | 42 | 48;
  bufferBytes: number;
  rowsPerSecond: number;
  pty?: string;
  controlPort?: number;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
