import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { demoMerchantFiles } from '../../src/adapters/merchant/test-merchant.js';
import { DEFAULT_PROFILE } from '../../src/config/printer-profile.js';
import type { PrinterTarget } from '../../src/config/targets.js';
import { ChduLiteEmulator } from '../../src/simulators/chdu/chdu-lite-emulator.js';
import { PrinterLinkSink } from '../../src/simulators/chdu/printer-link-sink.js';
import { EscPosDecoder } from '../../src/simulators/printer/escpos-decoder.js';
import { EscPosPaper, jobText, type PrintedJob } from '../../src/simulators/printer/escpos-paper.js';
import { EscPosPrinterSim } from '../../src/simulators/printer/escpos-printer-sim.js';
import { startHarness } from '../support/kasa-harness.js';
import { type DeviceJob, type PrinterRig, printerContract } from './printer.contract.js';

function hasSocat(): boolean {
  try {
    execFileSync('socat', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Decodes bytes as a printer would (the virtual printer keeps what it would have sent). */
function decoded(bytes: Uint8Array, chars: number): DeviceJob {
  const jobs: PrintedJob[] = [];
  const paper = new EscPosPaper((j) => jobs.push(j));
  for (const cmd of new EscPosDecoder().push(bytes)) paper.apply(cmd);
  paper.finish();
  const job = jobs[0]!;
  const qrCodes = job.elements.flatMap((e) => (e.kind === 'image' && e.qr !== undefined ? [e.qr] : []));
  return { text: jobText(job, chars), qrCodes };
}

/**
 * Where the line should drop in the next receipt: in the middle of its fourth printed line. The
 * reference is the last job's bytes from its ESC @ on (status requests before it vary); a new job
 * starts with DLE EOT 1 and DLE EOT 4 (6 bytes), and each unit is followed by its confirmation
 * request — DLE EOT 1 (3 bytes) or a process-ID request GS ( H (11 bytes) — which are skipped.
 */
function dropPoint(lastJobBytes: Uint8Array): number {
  let start = -1;
  for (let i = 0; i + 1 < lastJobBytes.length; i++) {
    if (lastJobBytes[i] === 0x1b && lastJobBytes[i + 1] === 0x40) {
      start = i;
      break;
    }
  }
  if (start < 0) throw new Error('no ESC @ in the reference job');
  let seen = 0;
  for (let i = start; i < lastJobBytes.length; i++) {
    if (lastJobBytes[i] !== 0x0a || ++seen !== 3) continue;
    // after the third line's LF: its confirmation request(s), the fourth line's modes (9), two characters
    let at = i + 1;
    for (;;) {
      if (lastJobBytes[at] === 0x10 && lastJobBytes[at + 1] === 0x04) at += 3;
      else if (lastJobBytes[at] === 0x1d && lastJobBytes[at + 1] === 0x28 && lastJobBytes[at + 2] === 0x48)
        at += 5 + (lastJobBytes[at + 3] ?? 0);
      else break;
    }
    return 6 + (at - start) + 9 + 2;
  }
  throw new Error('no third line in the reference job');
}

async function simRig(
  sim: EscPosPrinterSim,
  printer: PrinterTarget,
  exactResume = false,
): Promise<PrinterRig> {
  const h = await startHarness({ printer });
  return {
    h,
    paperOutCode: 105,
    exactResume,
    async setPaperOut(out) {
      sim.set({ paper: out ? 'out' : 'ok' });
    },
    async armDrop() {
      const last = sim.jobs.at(-1);
      if (!last) throw new Error('no reference job');
      sim.set({ dropAfterBytes: dropPoint(last.bytes) });
    },
    async clearDrop() {},
    async jobs() {
      return sim.jobs.map((j) => ({ text: j.text, qrCodes: j.qrCodes }));
    },
    async drawerKicks() {
      return sim.drawerKicks.length;
    },
    async close() {
      await h.close();
      await sim.close();
    },
  };
}

printerContract('virtual printer', async () => {
  const h = await startHarness();
  return {
    h,
    paperOutCode: 105,
    exactResume: true,
    async setPaperOut(out) {
      h.printer.setPaper(out ? 'out' : 'ok');
    },
    async armDrop() {
      h.printer.failNext('PARTIAL_PRINT');
    },
    async clearDrop() {},
    async jobs() {
      return h.printer.history.filter((j) => j.kind !== 'copy').map((j) => decoded(j.bytes, 48));
    },
    async drawerKicks() {
      return h.printer.drawerOpenings;
    },
    close: () => h.close(),
  };
});

printerContract('TCP adapter ↔ kasa printer-sim', async () => {
  const sim = await EscPosPrinterSim.start();
  return simRig(sim, { kind: 'tcp', host: sim.host, port: sim.port });
});

printerContract('TCP adapter confirming printing (GS ( H process IDs) ↔ kasa printer-sim', async () => {
  const sim = await EscPosPrinterSim.start();
  return simRig(
    sim,
    { kind: 'tcp', host: sim.host, port: sim.port, profile: { ...DEFAULT_PROFILE, confirm: 'printed' } },
    true,
  );
});

const socat = hasSocat();
if (!socat) {
  describe('printer contract over a pty', () => {
    it.skip('needs socat (apt-get install socat)', () => {});
  });
} else {
  printerContract('serial adapter over a socat pty pair ↔ kasa printer-sim', async () => {
    const sim = await EscPosPrinterSim.start();
    const path = join(mkdtempSync(join(tmpdir(), 'kasa-pty-')), 'ttyPRN');
    await sim.bridgePty(path);
    return simRig(sim, { kind: 'serial', path, baudRate: 115200 });
  });

  printerContract('USB (usblp device file) adapter over a pty ↔ kasa printer-sim', async () => {
    const sim = await EscPosPrinterSim.start();
    const path = join(mkdtempSync(join(tmpdir(), 'kasa-lp-')), 'lp0');
    await sim.bridgePty(path);
    return simRig(sim, { kind: 'usb', path });
  });
}

printerContract('CHDU pass-through ↔ kasa chdu-sim with a printer-sim behind it', async () => {
  const sim = await EscPosPrinterSim.start();
  const dir = mkdtempSync(join(tmpdir(), 'kasa-chdu-prn-'));
  // The CHDU Lite learns its printer's readiness from the RS-232 handshake lines: here, the sim's.
  const link = new PrinterLinkSink(sim.host, sim.port, {
    handshake: () => {
      const s = sim.state();
      return s.reachable && s.online && !s.coverOpen && s.paper !== 'out' && !s.overheated;
    },
  });
  const emulator = await ChduLiteEmulator.start({
    imagePath: join(dir, 'device.img'),
    capacityBlocks: 200_000,
    printer: link,
  });
  const dataDir = join(dir, 'data');
  const h = await startHarness({
    dataDir,
    printer: { kind: 'chdu' },
    chdu: { kind: 'chdu-lite-tcp', host: emulator.host, port: emulator.port },
    demo: false,
  });
  const files = demoMerchantFiles(dataDir);
  const stored = await h.post('/api/merchant/store', {
    identificationData: files.identityXml,
    authenticationData: files.authXml,
    keyStorePassword: files.password,
  });
  if (stored.body.resultCode !== 0) throw new Error(`merchant: ${JSON.stringify(stored.body)}`);
  return {
    h,
    paperOutCode: 100,
    exactResume: false,
    async setPaperOut(out) {
      sim.set({ paper: out ? 'out' : 'ok' });
    },
    async armDrop() {
      // The CHDÚ line drops after the device stored and forwarded 3 blocks of the next receipt.
      emulator.inject({ kind: 'disconnect', afterPrints: 3 });
    },
    async clearDrop() {
      emulator.clear('disconnect');
    },
    async jobs() {
      return sim.jobs.map((j) => ({ text: j.text, qrCodes: j.qrCodes }));
    },
    async drawerKicks() {
      return sim.drawerKicks.length;
    },
    async close() {
      await h.close();
      await emulator.close();
      link.close();
      await sim.close();
    },
  };
});
