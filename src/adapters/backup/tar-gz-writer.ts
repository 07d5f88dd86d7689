import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, createWriteStream, fsyncSync, openSync } from 'node:fs';
import { pipeline, type Writable } from 'node:stream';
import { createGzip, type Gzip } from 'node:zlib';

/** Opens the stream the archive's bytes go to (a test puts a full disk there). */
export type ArchiveSink = (path: string) => Writable;

/** A new file, never one that is there already. */
const newFile: ArchiveSink = (path) => createWriteStream(path, { flags: 'wx', mode: 0o600 });

/**
 * A gzip-compressed POSIX ustar archive written as a stream (ADR 0804): a kasa backup is a
 * `.tar.gz` any `tar -tzf` can list. Only regular files; sizes are known before a file's bytes
 * are written (the tar header carries them). Each file's SHA-256 is computed on the way.
 */
export class TarGzWriter {
  private readonly gzip: Gzip;
  private readonly closed: Promise<void>;
  private failed: Error | undefined;

  constructor(
    readonly path: string,
    sink: ArchiveSink = newFile,
  ) {
    this.gzip = createGzip({ level: 6 });
    // pipeline, not pipe: an error of the file (a full disk) also destroys the gzip stream, so a
    // write waiting for 'drain' wakes up with it instead of waiting for ever. These are the only
    // error listeners; waits for 'drain' add none that outlive them (no MaxListenersExceeded).
    this.closed = new Promise((resolve) => {
      pipeline(this.gzip, sink(path), (e) => {
        if (e) this.failed ??= e;
        resolve();
      });
    });
    this.gzip.on('error', (e) => {
      this.failed ??= e;
    });
  }

  /** Adds a file from `source`, which must yield exactly `size` bytes; resolves with their SHA-256. */
  async addFile(
    name: string,
    size: number,
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    mode = 0o600,
    mtimeMs = Date.now(),
  ): Promise<string> {
    await this.write(tarHeader(name, size, mode, mtimeMs));
    const hash = createHash('sha256');
    let written = 0;
    for await (const chunk of source) {
      written += chunk.length;
      if (written > size) throw new Error(`${name} grew while it was archived (more than ${size} bytes)`);
      hash.update(chunk);
      await this.write(chunk);
    }
    if (written !== size) throw new Error(`${name} has ${written} bytes, ${size} expected`);
    const pad = (512 - (size % 512)) % 512;
    if (pad > 0) await this.write(Buffer.alloc(pad));
    return hash.digest('hex');
  }

  addBuffer(name: string, data: Uint8Array, mode = 0o600): Promise<string> {
    return this.addFile(name, data.length, [data], mode);
  }

  /** Writes the end-of-archive marker, flushes and fsyncs the file. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(1024));
    this.gzip.end();
    await this.closed;
    if (this.failed) throw this.failed;
    // A backup is only a backup once it is on the disk.
    const fd = openSync(this.path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** Stops writing; the caller removes the partial file. */
  abort(): void {
    this.gzip.destroy();
  }

  private async write(chunk: Uint8Array): Promise<void> {
    if (this.failed) throw this.failed;
    if (this.gzip.destroyed) throw new Error(`${this.path}: the archive was closed while it was written`);
    // events.once removes both its 'drain' and its 'error' listener whichever comes first.
    if (!this.gzip.write(chunk)) await once(this.gzip, 'drain').catch(() => undefined);
    if (this.failed) throw this.failed;
  }
}

/** One 512-byte ustar header for a regular file (POSIX.1-1988 layout). */
export function tarHeader(name: string, size: number, mode: number, mtimeMs: number): Buffer {
  const h = Buffer.alloc(512);
  const { prefix, base } = splitName(name);
  h.write(base, 0, 100, 'utf8');
  octal(h, 100, 8, mode & 0o7777);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, Math.floor(mtimeMs / 1000));
  h.fill(0x20, 148, 156); // the checksum field counts as spaces while summing
  h.write('0', 156, 1, 'ascii');
  h.write('ustar\u000000', 257, 8, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'ascii');
  return h;
}

function octal(h: Buffer, offset: number, length: number, value: number): void {
  const text = value.toString(8);
  if (text.length > length - 1) throw new RangeError(`tar field too small for ${value}`);
  h.write(`${text.padStart(length - 1, '0')}\u0000`, offset, length, 'ascii');
}

/** ustar keeps names over 100 bytes as prefix (≤ 155) + "/" + name (≤ 100). */
function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  for (let i = name.lastIndexOf('/'); i > 0; i = name.lastIndexOf('/', i - 1)) {
    const prefix = name.slice(0, i);
    const base = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base };
  }
  throw new RangeError(`path too long for a tar archive: ${name}`);
}
