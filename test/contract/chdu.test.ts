import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { ChduLiteChdu } from '../../src/adapters/chdu/chdu-lite-chdu.js';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { CallbackPrintSink } from '../../src/adapters/chdu/print-sink.js';
import { SerialTransport, TcpTransport } from '../../src/adapters/transport/byte-transport.js';
import type { Chdu } from '../../src/core/ports/chdu.js';
import type { WireOptions } from '../../src/simulators/chdu/chdu-lite-device.js';
import { ChduLiteEmulator } from '../../src/simulators/chdu/chdu-lite-emulator.js';
import { type ChduHarness, chduContract, type HarnessOptions } from './chdu.contract.js';

function hasSocat(): boolean {
  try {
    execFileSync('socat', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function sink(printed: Uint8Array[], drawer: number[]) {
  return new CallbackPrintSink(
    (d) => {
      printed.push(Uint8Array.from(d));
    },
    (pin) => {
      drawer.push(pin);
    },
  );
}

chduContract('image file', async (o: HarnessOptions): Promise<ChduHarness> => {
  const dir = mkdtempSync(join(tmpdir(), 'kasa-contract-img-'));
  const printed: Uint8Array[] = [];
  const drawer: number[] = [];
  const open = () =>
    ImageFileChdu.open(join(dir, 'chdu.img'), {
      create: true,
      capacityBlocks: o.capacityBlocks,
      ...(o.withPrinter ? { printer: sink(printed, drawer) } : {}),
    });
  let chdu = await open();
  return {
    chdu,
    printed: () => printed,
    drawer: () => drawer,
    async reopen() {
      await chdu.close();
      chdu = await open();
      return chdu;
    },
    secondWriter: () => ImageFileChdu.open(join(dir, 'chdu.img')),
    async close() {
      await chdu.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

/**
 * The driver against `kasa chdu-sim`, over TCP or over a pty bridged by socat, speaking one reading
 * of the wire (ADR 0104 §2 and §6, amended; the emulator's defaults are the strictest).
 */
function emulatorHarness(kind: 'tcp' | 'pty', wire: WireOptions = {}) {
  return async (o: HarnessOptions): Promise<ChduHarness> => {
    const dir = mkdtempSync(join(tmpdir(), `kasa-contract-${kind}-`));
    const printed: Uint8Array[] = [];
    const drawer: number[] = [];
    const imagePath = join(dir, 'chdu.img');
    const start = () =>
      ChduLiteEmulator.start({
        imagePath,
        capacityBlocks: o.capacityBlocks,
        ...wire,
        ...(o.withPrinter ? { printer: sink(printed, drawer) } : {}),
      });
    let emulator = await start();
    const connect = async (): Promise<Chdu> => {
      if (kind === 'tcp') return new ChduLiteChdu(new TcpTransport('127.0.0.1', emulator.port), emulator.url);
      const tty = join(dir, 'tty');
      await emulator.bridgePty(tty);
      return new ChduLiteChdu(new SerialTransport(tty), `chdu-lite+serial://${tty}`);
    };
    let chdu = await connect();
    return {
      chdu,
      printed: () => printed,
      drawer: () => drawer,
      async reopen() {
        await chdu.close();
        await emulator.close();
        emulator = await start();
        chdu = await connect();
        return chdu;
      },
      // A second emulator (another `kasa chdu-sim`) on the same image.
      async secondWriter() {
        const other = await start();
        return new ChduLiteChdu(new TcpTransport('127.0.0.1', other.port), other.url);
      },
      async close() {
        await chdu.close();
        await emulator.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  };
}

/** Spec text: READ lead + frame with EOT; the host's ACK awaited after every data frame, then EOT. */
const SPEC_TEXT: WireOptions = { readShape: 'spec-text', requireHostAck: true, trailingEot: true };
/** The public .NET driver's reading: READ frames without EOT and an end byte after the host's ACK. */
const PUBLIC_DRIVER: WireOptions = { readShape: 'public-driver', requireHostAck: true, trailingEot: false };
/** ADR 0104 as first decided: single output frames need no answer and no EOT follows them. */
const FIRST_READING: WireOptions = { readShape: 'spec-text', requireHostAck: false, trailingEot: false };

chduContract('CHDU Lite driver → chdu-sim over TCP (spec text)', emulatorHarness('tcp', SPEC_TEXT));
chduContract('CHDU Lite driver → chdu-sim over TCP (public driver)', emulatorHarness('tcp', PUBLIC_DRIVER));
chduContract('CHDU Lite driver → chdu-sim over TCP (first reading)', emulatorHarness('tcp', FIRST_READING));

if (hasSocat()) {
  chduContract('CHDU Lite driver → chdu-sim over a socat pty (spec text)', emulatorHarness('pty', SPEC_TEXT));
  chduContract(
    'CHDU Lite driver → chdu-sim over a socat pty (public driver)',
    emulatorHarness('pty', PUBLIC_DRIVER),
  );
} else describe.skip('Chdu contract over a socat pty: socat is not installed', () => {});
