import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';

/**
 * A path a setting or a flag names that is not what kasa may open there (ADR 0426): its message is
 * one sentence naming the path and what it is (`/var/lib/kasa/chdu.img is a regular file, not a
 * printer device`), and never anything read from it.
 */
export class PathRefused extends Error {
  override readonly name = 'PathRefused';
}

/** What a file-system object is, in words that fit "PATH is …". */
export function kindOf(stats: Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isBlockDevice()) return 'a block device';
  if (isMemoryDevice(stats)) return 'a memory device';
  if (stats.isCharacterDevice()) return 'a character device';
  return 'not a file';
}

/**
 * Linux character major 1 is the memory devices (Documentation/admin-guide/devices.txt): null,
 * zero, full, random, urandom, kmsg, mem. They open like any device, DevicePolicy=closed of the
 * systemd unit lets the pseudo ones through, and none of them is a printer: /dev/zero answers
 * every read at once, for ever.
 */
function isMemoryDevice(stats: Stats): boolean {
  if (!stats.isCharacterDevice() || process.platform !== 'linux') return false;
  // glibc's dev_t keeps the low 12 bits of the major in bits 8-19 and the rest from bit 44 on.
  return (Math.floor(stats.rdev / 0x100) & 0xfff) === 1 && stats.rdev < 2 ** 44;
}

/** True when `stats` is a character device kasa may talk to (a printer, a serial line, a pty). */
export function isUsableCharacterDevice(stats: Stats): boolean {
  return stats.isCharacterDevice() && !isMemoryDevice(stats);
}

/**
 * Refuses `path` with a {@link PathRefused} when it names something other than a usable character
 * device (`what`: "a serial device"), by a look at it, before anything opens it: what cannot be
 * opened read-write (a directory: EISDIR) is named too. A path that is not there is left to the
 * caller's open and its own message.
 */
export async function refuseUnlessCharacterDevice(path: string, what: string): Promise<void> {
  const seen = await stat(path).catch(() => undefined);
  if (seen && !isUsableCharacterDevice(seen))
    throw new PathRefused(`${path} is ${kindOf(seen)}, not ${what}`);
}

/**
 * Opens a character device for reading and writing without blocking, or refuses the path with a
 * {@link PathRefused} naming what it is instead (`what`: "a printer device"). The check is on the
 * opened descriptor, before a byte is written: a symlink, or a path swapped after a look, is judged
 * by what was opened. A regular file opened this way is left exactly as it was (no O_CREAT,
 * O_TRUNC or O_APPEND, and it is closed again).
 */
export async function openCharacterDevice(path: string, what: string): Promise<FileHandle> {
  await refuseUnlessCharacterDevice(path, what);
  const flags = constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK;
  const handle = await open(path, flags);
  let stats: Stats;
  try {
    stats = await handle.stat();
  } catch (e) {
    await handle.close().catch(() => undefined);
    throw e;
  }
  if (!isUsableCharacterDevice(stats)) {
    await handle.close().catch(() => undefined);
    throw new PathRefused(`${path} is ${kindOf(stats)}, not ${what}`);
  }
  return handle;
}

/**
 * The largest PEM file of trusted certificates kasa reads (`--sfs-trust`, `sfsTrust`,
 * `--nop-trust`). One certificate is 1-2 KB; a whole public CA bundle (Mozilla's, ~150
 * certificates) is about 220 KB.
 */
export const MAX_PEM_FILE_BYTES = 1_048_576;

/** The bound of {@link readRegularFileSync} in words, e.g. "1 MiB". */
export function sizeInWords(bytes: number): string {
  if (bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * Reads a regular file of at most `maxBytes`, or refuses the path with a {@link PathRefused}
 * (`what`: "a PEM file"). A FIFO, a device or a directory is refused before it is read: reading a
 * FIFO synchronously holds the event loop until someone writes to it, and /dev/zero never ends. The
 * path is looked at first, so such a file is normally not even opened; it is opened without
 * blocking and judged again by its descriptor, so a path swapped in between is refused too.
 * Errors of the file system (ENOENT, EACCES) are thrown as they come.
 */
export function readRegularFileSync(path: string, maxBytes: number, what: string): Buffer {
  refuseUnlessRegular(path, statSync(path), maxBytes, what);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
  try {
    refuseUnlessRegular(path, fstatSync(fd), maxBytes, what);
    // One byte more than allowed tells a file that grew after fstat.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw tooLarge(path, maxBytes, what);
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

function refuseUnlessRegular(path: string, stats: Stats, maxBytes: number, what: string): void {
  if (!stats.isFile()) throw new PathRefused(`${path} is ${kindOf(stats)}, not ${what}`);
  if (stats.size > maxBytes) throw tooLarge(path, maxBytes, what);
}

function tooLarge(path: string, maxBytes: number, what: string): PathRefused {
  return new PathRefused(`${path} is larger than the ${sizeInWords(maxBytes)} allowed for ${what}`);
}
