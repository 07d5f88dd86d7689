import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChduIdentity, HighWaterMark } from '../../core/journal/high-water-mark.js';
import type { HighWaterMarkStore } from '../../core/ports/high-water-mark-store.js';

/**
 * High-water marks as one small JSON file per CHDÚ, `<dir>/chdu-<serial>-<volumeSerial>.json`
 * (ADR 0118). A write goes to a temporary file that is synced, renamed over the mark and the
 * folder synced, so a crash or power loss leaves the old mark or the new one, never half of one.
 */
export class FileHighWaterMarkStore implements HighWaterMarkStore {
  constructor(readonly dir: string) {}

  locate(id: ChduIdentity): string {
    return join(this.dir, `chdu-${id.serial >>> 0}-${id.volumeSerial >>> 0}.json`);
  }

  async read(id: ChduIdentity): Promise<HighWaterMark | undefined> {
    const path = this.locate(id);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      // No such file: none written yet — also when a folder on the way is not a folder (ENOTDIR),
      // which then also fails the write, shown as a CHDU status WARNING (ADR 0118).
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw new Error(`cannot read ${path}: ${(e as Error).message}`);
    }
    const mark = parseMark(text);
    if (!mark || mark.chdu.serial !== id.serial >>> 0 || mark.chdu.volumeSerial !== id.volumeSerial >>> 0) {
      throw new Error(`${path} is not a kasa high-water mark of this CHDÚ`);
    }
    return mark;
  }

  async write(mark: HighWaterMark): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const path = this.locate(mark.chdu);
    const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    const fh = await open(tmp, 'wx', 0o600);
    try {
      try {
        await fh.writeFile(`${JSON.stringify(mark, null, 2)}\n`);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    const dir = await open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}

function parseMark(text: string): HighWaterMark | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const m = v as Record<string, unknown>;
  const chdu = m.chdu as Record<string, unknown> | undefined;
  const uint = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;
  if (
    m.version !== 1 ||
    !chdu ||
    !uint(chdu.serial) ||
    !uint(chdu.volumeSerial) ||
    typeof chdu.target !== 'string' ||
    !uint(m.recordNo) ||
    typeof m.headHash !== 'string' ||
    typeof m.markedAt !== 'string'
  ) {
    return undefined;
  }
  const d = m.lastDocument as Record<string, unknown> | undefined;
  const lastDocument =
    d && typeof d.documentNumber === 'string' && typeof d.month === 'string' && uint(d.sequenceId)
      ? { documentNumber: d.documentNumber, month: d.month, sequenceId: d.sequenceId }
      : undefined;
  return {
    version: 1,
    chdu: { serial: chdu.serial, volumeSerial: chdu.volumeSerial, target: chdu.target },
    recordNo: m.recordNo,
    headHash: m.headHash,
    ...(lastDocument ? { lastDocument } : {}),
    markedAt: m.markedAt,
  };
}
