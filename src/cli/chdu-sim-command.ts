import { resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { READ_SHAPES, type ReadShape } from '../adapters/chdu/chdu-lite-codec.js';
import { FilePrintSink, type PrintSink } from '../adapters/chdu/print-sink.js';
import { integerIn } from '../config/option-spec.js';
import { UsageError } from '../config/usage-error.js';
import { FiscalError } from '../core/fiscal-error.js';
import { startControlServer } from '../simulators/chdu/chdu-lite-control.js';
import { ChduLiteEmulator } from '../simulators/chdu/chdu-lite-emulator.js';
import { FAULT_KINDS, type FaultSpec, parseFaultSpec } from '../simulators/chdu/chdu-lite-faults.js';
import { PrinterLinkSink } from '../simulators/chdu/printer-link-sink.js';
import type { CliIo } from './program.js';

/** Test seam: see the running emulator, and stop it without a signal. */
export interface ChduSimLifecycle {
  started?: (emulator: ChduLiteEmulator, control: { port: number } | undefined) => void;
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

/** `none`, `file:PATH` (raw printer bytes appended) or `tcp://HOST:PORT` (e.g. kasa printer-sim). */
function printerTarget(text: string): string {
  if (text === 'none' || (text.startsWith('file:') && text.length > 5)) return text;
  if (/^tcp:\/\/[A-Za-z0-9.-]+:\d{1,5}$/.test(text)) return text;
  throw new Error('use file:PATH, tcp://HOST:PORT or none');
}

function printSink(text: string, cwd: string): PrintSink | undefined {
  if (text === 'none') return undefined;
  if (text.startsWith('file:')) return new FilePrintSink(resolve(cwd, text.slice(5)));
  const [host, port] = text.slice(6).split(':') as [string, string];
  return new PrinterLinkSink(host, Number(port));
}

/**
 * `kasa chdu-sim`: the CHDU Lite emulator (wire protocol on TCP, and on a pty with `--pty`),
 * backed by an image file, with injectable faults and a small HTTP control interface.
 */
export function registerChduSimCommand(program: Command, io: CliIo, lifecycle: ChduSimLifecycle = {}): void {
  const cmd = program
    .command('chdu-sim')
    .description('CHDU Lite emulator on TCP (and a pty) backed by an image file')
    .requiredOption('--image <path>', 'image file behind the emulated device (created when missing)')
    .addOption(new Option('--host <address>', 'listen address').default('127.0.0.1'))
    .addOption(
      new Option('--port <number>', 'TCP port (0 = any free port)')
        .argParser(parse(integerIn(0, 65535, 'port')))
        .default(0),
    )
    .addOption(
      new Option(
        '--capacity <blocks>',
        'capacity of a new image in blocks (default 2000000); an existing image keeps its own',
      ).argParser(parse(integerIn(1, 0xffffffff, 'capacity'))),
    )
    .addOption(
      new Option('--serial <number>', 'device serial of a new image').argParser(
        parse(integerIn(0, 0xffffffff, 'serial')),
      ),
    )
    .addOption(
      new Option(
        '--printer <target>',
        'where WRITE_PRINT data go: file:PATH, tcp://HOST:PORT (an ESC/POS printer) or none',
      )
        .argParser(parse(printerTarget))
        .default('none'),
    )
    .option('--pty <path>', 'also serve on a pseudo-terminal linked at PATH (needs socat)')
    .addOption(
      new Option(
        '--fault <spec>',
        // The list comes from the emulator's own, so the help names every kind it accepts.
        `inject a fault from the start: ${FAULT_KINDS.join('|')}[:after=N,afterPrints=N,count=N]; repeatable`,
      ).argParser((v: string, prev: FaultSpec[] | undefined) => [...(prev ?? []), parse(parseFaultSpec)(v)]),
    )
    .addOption(
      new Option(
        '--read-shape <shape>',
        'READ framing: spec-text (lead, frame with EOT) or public-driver (frame, end byte after the host ACK)',
      )
        .choices(READ_SHAPES)
        .default('spec-text'),
    )
    .option(
      '--no-host-ack',
      'do not wait for the host ACK after a single output data frame (READ frames always)',
    )
    .option(
      '--no-trailing-eot',
      'no EOT after the last frame of a data transfer (READ spec-text framing keeps its own)',
    )
    .addOption(
      new Option(
        '--control-port <number>',
        'HTTP control interface port on the same host (faults, history)',
      ).argParser(parse(integerIn(0, 65535, 'control port'))),
    );
  cmd.action(async (opts: SimOptions) => {
    const printer = printSink(opts.printer, io.cwd);
    const emulator = await ChduLiteEmulator.start({
      imagePath: resolve(io.cwd, opts.image),
      ...(opts.capacity === undefined ? {} : { capacityBlocks: opts.capacity }),
      ...(opts.serial === undefined ? {} : { serial: opts.serial }),
      ...(printer ? { printer } : {}),
      faults: opts.fault ?? [],
      readShape: opts.readShape,
      requireHostAck: opts.hostAck,
      trailingEot: opts.trailingEot,
      host: opts.host,
      port: opts.port,
    }).catch((e: unknown) => {
      // ADR 0106: an image another process writes (or a capacity it does not have) is a usage error.
      if (FiscalError.is(e) && (e.resultCode === 200 || e.resultCode === 701)) {
        throw new UsageError(`--image ${opts.image}: ${e.message}`, { cause: e });
      }
      throw e;
    });
    const closers: Array<() => Promise<void>> = [
      async () => {
        await emulator.close();
        if (printer instanceof PrinterLinkSink) printer.close();
      },
    ];
    try {
      let controlPort: number | undefined;
      if (opts.controlPort !== undefined) {
        const server = await startControlServer(emulator, opts.controlPort, opts.host);
        controlPort = (server.address() as { port: number }).port;
        closers.unshift(() => new Promise<void>((r) => server.close(() => r())));
      }
      if (opts.pty) await emulator.bridgePty(resolve(io.cwd, opts.pty));
      const w = emulator.wire;
      const wire = `${w.readShape}${w.requireHostAck ? '' : ',no-host-ack'}${w.trailingEot ? '' : ',no-trailing-eot'}`;
      io.stdout(
        `chdu-sim listening on ${emulator.url}${opts.pty ? `  pty ${resolve(io.cwd, opts.pty)}` : ''}` +
          `${controlPort === undefined ? '' : `  control http://${opts.host}:${controlPort}/state`}` +
          `  image ${emulator.image.path}  printer ${printer?.target ?? 'none'}  wire ${wire}\n`,
      );
      lifecycle.started?.(emulator, controlPort === undefined ? undefined : { port: controlPort });
      await (lifecycle.stop ?? untilSignal());
    } finally {
      for (const close of closers) await close();
    }
  });
}

interface SimOptions {
  image: string;
  host: string;
  port: number;
  capacity?: number;
  serial?: number;
  printer: string;
  pty?: string;
  fault?: FaultSpec[];
  readShape: ReadShape;
  hostAck: boolean;
  trailingEot: boolean;
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
