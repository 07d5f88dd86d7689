import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** One file taken out of an archive. */
export interface ExtractedEntry {
  /** The name inside the archive, e.g. `files/secrets/install-salt`. */
  name: string;
  /** Where it was written. */
  path: string;
  bytes: number;
  sha256: string;
  mode: number;
}

export interface ExtractLimits {
  /** Most entries accepted (a backup has a handful). */
  maxEntries: number;
  /** Most bytes accepted in all (bounds the work a bad file can cause). */
  maxBytes: number;
}

/**
 * Extracts a `.tar.gz` written by {@link TarGzWriter} into `dir`, hashing every file on the way.
 * It accepts what the writer writes and nothing else (the archive may come from anywhere):
 * regular files only, names relative, no `..`, no duplicates, within `limits`. Anything else
 * rejects with an Error naming the entry.
 */
export async function extractTarGz(
  archive: string,
  dir: string,
  limits: ExtractLimits,
): Promise<ExtractedEntry[]> {
  const entries: ExtractedEntry[] = [];
  const names = new Set<string>();
  let total = 0;
  let header = Buffer.alloc(0);
  let current: { entry: ExtractedEntry; left: number; pad: number; out: WriteStream; hash: Hash } | undefined;
  let skip = 0;
  let ended = false;
  let writeError: Error | undefined;

  const finishEntry = async (): Promise<void> => {
    const c = current!;
    c.entry.sha256 = c.hash.digest('hex');
    c.out.end();
    await once(c.out, 'close');
    entries.push(c.entry);
    skip = c.pad;
    current = undefined;
  };

  // pipeline, not pipe: an error reading the file (missing, a folder, unreadable) must end the
  // loop below as a rejection, not surface as an unhandled 'error' event that kills the process.
  // Every error reaches the loop through the gunzip stream, so the callback has nothing to add.
  const stream = pipeline(createReadStream(archive), createGunzip(), () => undefined);
  try {
    for await (const raw of stream) {
      let chunk = raw as Buffer;
      while (chunk.length > 0 && !ended) {
        if (current) {
          const take = Math.min(current.left, chunk.length);
          const part = chunk.subarray(0, take);
          current.hash.update(part);
          if (writeError) throw writeError;
          if (!current.out.write(part)) await once(current.out, 'drain');
          current.left -= take;
          chunk = chunk.subarray(take);
          if (current.left === 0) await finishEntry();
          continue;
        }
        if (skip > 0) {
          const take = Math.min(skip, chunk.length);
          skip -= take;
          chunk = chunk.subarray(take);
          continue;
        }
        const need = 512 - header.length;
        header = Buffer.concat([header, chunk.subarray(0, need)]);
        chunk = chunk.subarray(Math.min(need, chunk.length));
        if (header.length < 512) continue;
        const block = header;
        header = Buffer.alloc(0);
        if (block.every((b) => b === 0)) {
          ended = true;
          break;
        }
        const h = parseHeader(block);
        if (entries.length + 1 > limits.maxEntries) throw new Error(`more than ${limits.maxEntries} entries`);
        if (names.has(h.name)) throw new Error(`entry ${h.name} appears twice`);
        names.add(h.name);
        total += h.size;
        if (total > limits.maxBytes) throw new Error(`more than ${limits.maxBytes} bytes in all`);
        const path = join(dir, h.name);
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
        out.on('error', (e) => {
          writeError ??= e;
        });
        current = {
          entry: { name: h.name, path, bytes: h.size, sha256: '', mode: h.mode },
          left: h.size,
          pad: (512 - (h.size % 512)) % 512,
          out,
          hash: createHash('sha256'),
        };
        if (h.size === 0) await finishEntry();
      }
      if (ended) break;
    }
  } finally {
    current?.out.destroy();
    stream.destroy();
  }
  if (!ended || current) throw new Error('the archive ends before its end marker (truncated)');
  return entries;
}

function parseHeader(h: Buffer): { name: string; size: number; mode: number } {
  const stored = readOctal(h, 148, 8);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
  if (stored !== sum) throw new Error('a tar header fails its checksum (damaged archive)');
  if (h.toString('ascii', 257, 262) !== 'ustar') throw new Error('not a ustar archive');
  const type = String.fromCharCode(h[156]!);
  const text = (from: number, length: number): string => {
    const field = h.subarray(from, from + length);
    const end = field.indexOf(0);
    return field.toString('utf8', 0, end < 0 ? length : end);
  };
  const prefix = text(345, 155);
  const name = prefix === '' ? text(0, 100) : `${prefix}/${text(0, 100)}`;
  if (type !== '0' && type !== '\u0000') throw new Error(`entry ${name} is not a regular file`);
  const parts = name.split('/');
  if (name === '' || name.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new Error(`entry name ${JSON.stringify(name)} is not a plain relative path`);
  }
  return { name, size: readOctal(h, 124, 12), mode: readOctal(h, 100, 8) };
}

function readOctal(h: Buffer, offset: number, length: number): number {
  const field = h.subarray(offset, offset + length);
  const nul = field.indexOf(0);
  const text = field.toString('ascii', 0, nul < 0 ? length : nul).trim();
  if (!/^[0-7]+$/.test(text)) throw new Error('a tar header has a bad number field (damaged archive)');
  return Number.parseInt(text, 8);
}
