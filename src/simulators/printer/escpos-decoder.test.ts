import { describe, expect, it } from 'vitest';
import { EscPosDecoder, MAX_COMMAND_BYTES } from './escpos-decoder.js';
import { EscPosPaper, jobText, type PrintedJob } from './escpos-paper.js';

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/** Decodes bytes (in chunks of `chunk`) onto a paper `paperDots` wide; the finished jobs. */
function print(bytes: Uint8Array, paperDots = 576, chunk = bytes.length): PrintedJob[] {
  const jobs: PrintedJob[] = [];
  const paper = new EscPosPaper((j) => jobs.push(j), undefined, { paperDots });
  const decoder = new EscPosDecoder();
  for (let at = 0; at < bytes.length; at += chunk) {
    for (const cmd of decoder.push(bytes.subarray(at, at + chunk))) paper.apply(cmd);
  }
  paper.finish();
  return jobs;
}

/** A checkerboard of `w`×`h` dots as raster rows (MSB left). */
function rows(w: number, h: number): number[] {
  const bytes: number[] = [];
  const wb = Math.ceil(w / 8);
  for (let y = 0; y < h; y++) for (let x = 0; x < wb; x++) bytes.push(y % 2 === 0 ? 0xaa : 0x55);
  return bytes;
}

describe('EscPosDecoder and EscPosPaper: bytes written by hand', () => {
  it('ESC i (full cut) and ESC m (partial cut) end a job like GS V', () => {
    const jobs = print(
      Uint8Array.from([0x1b, 0x40, ...ascii('one'), 0x0a, 0x1b, 0x69, ...ascii('two'), 0x0a, 0x1b, 0x6d]),
    );
    expect(jobs.map((j) => [jobText(j, 48), j.cut])).toEqual([
      ['one\n', true],
      ['two\n', true],
    ]);
  });

  it('GS ( L fn 112 stores a raster graphic, fn 50 prints it (scaled by bx, by); also GS 8 L', () => {
    const w = 40;
    const h = 10;
    const data = rows(w, h);
    const params = [48, 112, 48, 2, 2, 49, w & 0xff, w >> 8, h & 0xff, h >> 8, ...data];
    const store = [0x1d, 0x28, 0x4c, params.length & 0xff, params.length >> 8, ...params];
    const printIt = [0x1d, 0x28, 0x4c, 2, 0, 48, 50];
    const len = params.length;
    const store8 = [0x1d, 0x38, 0x4c, len & 0xff, (len >> 8) & 0xff, 0, 0, ...params];
    const print8 = [0x1d, 0x38, 0x4c, 2, 0, 0, 0, 48, 2];
    const jobs = print(
      Uint8Array.from([...store, ...printIt, 0x1d, 0x56, 0, ...store8, ...print8, 0x1d, 0x56, 0]),
      576,
      7,
    );
    expect(jobs).toHaveLength(2);
    for (const job of jobs) {
      const image = job.elements.find((e) => e.kind === 'image');
      expect(image).toMatchObject({ kind: 'image', width: 80, height: 20 });
      expect(job.notes).toEqual([]);
      if (image?.kind === 'image') {
        // Doubled both ways: rows 0 and 1 are the first source row, dots 0 and 1 its first dot.
        expect([image.dots[0], image.dots[1], image.dots[2], image.dots[80], image.dots[160]]).toEqual([
          1, 1, 0, 1, 0,
        ]);
      }
    }
  });

  it('a GS v 0 image wider than the paper is clipped to the paper, as the head prints it', () => {
    const widthBytes = 60_000;
    const height = 100;
    const header = [0x1d, 0x76, 0x30, 0, widthBytes & 0xff, widthBytes >> 8, height, 0];
    const bytes = new Uint8Array(header.length + widthBytes * height + 3);
    bytes.set(header, 0);
    bytes.fill(0xff, header.length, header.length + widthBytes * height);
    bytes.set([0x1d, 0x56, 0], header.length + widthBytes * height);
    const [job] = print(bytes, 384, 65_536);
    expect(job!.elements).toHaveLength(1);
    expect(job!.elements[0]).toMatchObject({ kind: 'image', width: 384, height: 100 });
    expect(jobText(job!, 32).trim()).toBe('[image 384x100]');
  });

  it('a command declaring more than any printer takes is skipped as its data arrive, never buffered', () => {
    const len = MAX_COMMAND_BYTES + 1000;
    const decoder = new EscPosDecoder();
    const out = decoder.push(
      Uint8Array.from([0x1d, 0x38, 0x4c, len & 0xff, (len >> 8) & 0xff, (len >> 16) & 0xff, 0]),
    );
    expect(out).toEqual([{ op: 'skipped', name: 'GS 8', bytes: len }]);
    const chunk = new Uint8Array(65_536).fill(0x41);
    let sent = 0;
    while (sent + chunk.length <= len) {
      expect(decoder.push(chunk)).toEqual([]);
      sent += chunk.length;
      expect(decoder.pending).toBe(len - sent); // nothing kept, only counted
    }
    const tail = new Uint8Array(len - sent + 4);
    tail.set(ascii('ok\n'), len - sent);
    const after = decoder.push(tail.subarray(0, len - sent + 3));
    expect(after.map((c) => c.op)).toEqual(['text', 'lf']);
    expect(decoder.pending).toBe(0);
  });

  it('a big image arriving in small pieces is decoded once, in linear time', () => {
    const widthBytes = 72;
    const height = 4000;
    const bytes = Uint8Array.from([
      0x1d,
      0x76,
      0x30,
      0,
      widthBytes,
      0,
      height & 0xff,
      height >> 8,
      ...rows(576, height),
      0x1d,
      0x56,
      0,
    ]);
    const [job] = print(bytes, 576, 100);
    expect(job!.elements[0]).toMatchObject({ kind: 'image', width: 576, height });
  });

  it('GS ( H fn 48 is a process-ID request; DLE DC4 fn 1 a real-time drawer pulse', () => {
    const cmds = new EscPosDecoder().push(
      Uint8Array.from([0x1d, 0x28, 0x48, 6, 0, 48, 48, ...ascii('0042'), 0x10, 0x14, 1, 1, 5]),
    );
    expect(cmds).toEqual([
      { op: 'process-id', id: '0042' },
      { op: 'drawer', pin: 5, realtime: true },
    ]);
  });
});
