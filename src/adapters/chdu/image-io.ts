import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, rm, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The few file operations the image-file CHDÚ needs, as a seam: tests wrap it to inject an I/O
 * error at an exact point (ENOSPC, EIO) without touching the real file system's behaviour.
 */
export interface ImageIo {
  /**
   * True when the file is open with O_DSYNC: write() then returns only once the data (and the
   * file size) are durable, the guarantee of write + fdatasync in one system call.
   */
  readonly durableWrites: boolean;
  /** Reads into `buf` from `position`; resolves with the number of bytes read. */
  read(buf: Buffer, position: number): Promise<number>;
  write(buf: Buffer, position: number): Promise<void>;
  /** Makes everything written so far durable (fdatasync). */
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  size(): Promise<number>;
  /**
   * Bytes the file system still lets an unprivileged writer add beside the image (statfs
   * `bavail × bsize`): after a write failed for lack of space, the image waits for room again
   * before it answers OK (ADR 0116).
   */
  available(): Promise<number>;
  close(): Promise<void>;
}

export type ImageIoOpener = (path: string, writable: boolean, durableWrites?: boolean) => Promise<ImageIo>;

export const openImageIo: ImageIoOpener = async (path, writable, durableWrites = writable) => {
  const dsync = writable && durableWrites;
  const fh = await open(
    path,
    writable ? constants.O_RDWR | (dsync ? constants.O_DSYNC : 0) : constants.O_RDONLY,
  );
  return {
    durableWrites: dsync,
    async read(buf, position) {
      let done = 0;
      while (done < buf.length) {
        const { bytesRead } = await fh.read(buf, done, buf.length - done, position + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done;
    },
    async write(buf, position) {
      let done = 0;
      while (done < buf.length) {
        const { bytesWritten } = await fh.write(buf, done, buf.length - done, position + done);
        done += bytesWritten;
      }
    },
    sync: () => fh.datasync(),
    truncate: (length) => fh.truncate(length),
    size: async () => (await fh.stat()).size,
    available: async () => {
      const fs = await statfs(dirname(path));
      return fs.bavail * fs.bsize;
    },
    close: () => fh.close(),
  };
};

/**
 * Creates a file with `content` atomically and only if no file has that name: written to a
 * temporary name, synced, then hard-linked to the final name (link() fails with EEXIST instead of
 * replacing, unlike rename()), and the directory synced. A crash leaves either no file or the
 * whole content; a racing creator can never replace a live image. Resolves false when the file
 * already existed (nothing changed).
 */
export async function createFileExclusively(path: string, content: Buffer): Promise<boolean> {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  const fh = await open(tmp, 'wx');
  try {
    try {
      await fh.write(content, 0, content.length, 0);
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await link(tmp, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    await rm(tmp, { force: true });
  }
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
  return true;
}
