import type { Chdu } from '../ports/chdu.js';
import type { Journal } from '../ports/journal.js';
import type { JournalIndex } from '../ports/journal-index.js';

/**
 * `GET /api/chduinfo` and `kasa chdu info`: what the protected data storage is and how full it is.
 * Read-only; answered even while the register refuses fiscal work (ADR 0008 §11).
 */
export interface ChduInfo {
  /** e.g. `CHDU Lite`, `kasa image file`. */
  model: string;
  /** The `--chdu` target, e.g. `image:/var/kasa/chdu.img`. */
  target: string;
  serial: number;
  volumeSerial: number;
  firmwareVersion: string;
  protocolVersion: string;
  blockDataSize: number;
  capacityBlocks: number;
  usedBlocks: number;
  freeBlocks: number;
  capacityBytes: number;
  usedBytes: number;
  freeBytes: number;
  /** Journal records on the CHDÚ (the head's number). */
  recordCount: number;
  storageOk: boolean;
  printerReady: boolean;
  locked: boolean;
  /** When the last record was written (SFS dateTime); absent on an empty journal. */
  lastWriteAt?: string;
  /**
   * Image file only: bytes after the last complete block when the image was opened (a write torn
   * by a crash, or a damaged last block; ADR 0108). 0 normally.
   */
  tornBytesAtOpen?: number;
  index: IndexInfo;
}

export interface IndexInfo {
  /**
   * `current`: at the head; `behind`: replay pending; `ahead`: the index has records the CHDÚ
   * lacks — acknowledged records missing (the register refuses, 201) or an index of another CHDÚ
   * (rebuilt at the next check); `mismatch`: its hash differs, rebuilt at the next check;
   * `missing`: none.
   */
  state: 'current' | 'behind' | 'ahead' | 'mismatch' | 'missing';
  highWaterMark: number;
}

export async function chduInfo(deps: {
  chdu: Chdu;
  journal: Journal;
  index?: JournalIndex | undefined;
}): Promise<ChduInfo> {
  const { chdu, journal } = deps;
  const status = await chdu.status();
  const volumeSerial = await chdu.volumeSerial();
  const firmwareVersion = await chdu.firmwareVersion();
  const head = journal.head();
  const used = status.capacityBlocks - status.freeBlocks;
  const size = status.blockDataSize;
  return {
    model: chdu.model ?? 'CHDÚ',
    target: chdu.target,
    serial: status.serial,
    volumeSerial,
    firmwareVersion,
    protocolVersion: status.protocolVersion,
    blockDataSize: size,
    capacityBlocks: status.capacityBlocks,
    usedBlocks: used,
    freeBlocks: status.freeBlocks,
    capacityBytes: status.capacityBlocks * size,
    usedBytes: used * size,
    freeBytes: status.freeBlocks * size,
    recordCount: head?.recordNo ?? 0,
    storageOk: status.storageOk,
    printerReady: status.printerReady,
    locked: status.deviceLocked,
    ...(head?.writtenAt ? { lastWriteAt: head.writtenAt } : {}),
    ...(chdu.tornBytesAtOpen === undefined ? {} : { tornBytesAtOpen: chdu.tornBytesAtOpen }),
    index: indexInfo(journal, deps.index),
  };
}

export function indexInfo(journal: Journal, index: JournalIndex | undefined): IndexInfo {
  if (!index) return { state: 'missing', highWaterMark: 0 };
  const hwm = index.highWaterMark();
  const head = journal.head();
  const headNo = head?.recordNo ?? 0;
  if (hwm > headNo) return { state: 'ahead', highWaterMark: hwm };
  if (hwm < headNo) return { state: 'behind', highWaterMark: hwm };
  if (hwm > 0 && index.highWaterHash() !== head?.hash) return { state: 'mismatch', highWaterMark: hwm };
  return { state: 'current', highWaterMark: hwm };
}
