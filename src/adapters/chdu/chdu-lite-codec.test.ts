import { describe, expect, it } from 'vitest';
import {
  CMD,
  decodeBlockData,
  decodeStatus,
  decodeVersion,
  EC,
  encodeAck,
  encodeBlockData,
  encodeCommand,
  encodeFrame,
  encodeLockActivate,
  encodeLockRequest,
  encodeNak,
  encodeOpenFrame,
  encodeRead,
  encodeStatus,
  encodeVersion,
  encodeWrite,
  encodeWritePrint,
  encodeWritePrintOffset,
  FLAG,
  FrameParser,
  type FrameResult,
  u32,
} from './chdu-lite-codec.js';
import { blockCrc } from './image-layout.js';

/** Golden frames written by hand from the tables of the maker's specification P150300 v1.3 (not produced by the codec). */
const hex = (s: string) =>
  Uint8Array.from(
    s
      .trim()
      .split(/\s+/)
      .map((h) => Number.parseInt(h, 16)),
  );
const ascii = (s: string) => new TextEncoder().encode(s);

describe('CHDU Lite command frames (STX LEN CMD ARGS EOT, LEN = |CMD+ARGS| LE)', () => {
  it.each([
    ['NOP', encodeCommand(CMD.NOP), '02 01 00 00 04'],
    ['STATUS', encodeCommand(CMD.STATUS), '02 01 00 5A 04'],
    ['VOLUME_SERIAL', encodeCommand(CMD.VOLUME_SERIAL), '02 01 00 5B 04'],
    ['VERSION2', encodeCommand(CMD.VERSION2), '02 01 00 5C 04'],
    ['READ start 16 count 3', encodeRead(16, 3), '02 09 00 B1 10 00 00 00 03 00 00 00 04'],
    [
      'READ start 0x01020304 count 0x7F',
      encodeRead(0x01020304, 0x7f),
      '02 09 00 B1 04 03 02 01 7F 00 00 00 04',
    ],
    ['WRITE "AB"', encodeWrite(ascii('AB')), '02 03 00 B2 41 42 04'],
    ['WRITE nothing', encodeWrite(new Uint8Array(0)), '02 01 00 B2 04'],
    ['WRITE_PRINT "Hi"', encodeWritePrint(ascii('Hi')), '02 03 00 B3 48 69 04'],
    [
      'WRITE_PRINT_OFFSET 2 "XXHi"',
      encodeWritePrintOffset(2, ascii('XXHi')),
      '02 07 00 B4 02 00 58 58 48 69 04',
    ],
    ['OPEN_DRAWER', encodeCommand(CMD.OPEN_DRAWER), '02 01 00 12 04'],
    ['OPEN_DRAWER2', encodeCommand(CMD.OPEN_DRAWER2), '02 01 00 13 04'],
    ['LOCK_REQUEST seed 0x12345678', encodeLockRequest(0x12345678), '02 05 00 C1 78 56 34 12 04'],
    ['LOCK_ACTIVATE key 0xDEADBEEF', encodeLockActivate(0xdeadbeef), '02 05 00 C2 EF BE AD DE 04'],
  ])('%s', (_name, actual, golden) => {
    expect(Array.from(actual)).toEqual(Array.from(hex(golden)));
  });

  it('a WRITE of the full 505 bytes is the maximum frame of 510 bytes, LEN 0x01FA', () => {
    const frame = encodeWrite(new Uint8Array(505).fill(0x55));
    expect(frame.length).toBe(510);
    expect(Array.from(frame.subarray(0, 4))).toEqual([0x02, 0xfa, 0x01, 0xb2]);
    expect(frame[509]).toBe(0x04);
    expect(() => encodeWrite(new Uint8Array(506))).toThrow(RangeError);
  });
});

describe('CHDU Lite output frames', () => {
  it('STATUS is 24 bytes: version, flags, serial, capacity, free, block size, reserved', () => {
    const golden = hex(`
      03 01  03 00  04 03 02 01  80 84 1E 00  76 84 1E 00  F9 01 00 00  00 00 00 00`);
    const fields = {
      version: 0x0103,
      flags: FLAG.STORAGE_OK | FLAG.PRINTER_READY,
      serial: 0x01020304,
      capacity: 2_000_000,
      free: 1_999_990,
      blockDataSize: 505,
      reserved: 0,
    };
    expect(Array.from(encodeStatus(fields))).toEqual(Array.from(golden));
    expect(decodeStatus(golden)).toEqual(fields);
    expect(Array.from(encodeFrame(golden).subarray(0, 3))).toEqual([0x02, 0x18, 0x00]);
    expect(() => decodeStatus(golden.subarray(1))).toThrow(RangeError);
  });

  it('status flag values are the table values', () => {
    expect(FLAG).toEqual({ STORAGE_OK: 0x01, PRINTER_READY: 0x02, DEVICE_LOCK: 0x04, PRINTER_INVALID: 0x10 });
  });

  it('VOLUME_SERIAL is a uint32 LE, VERSION2 ASCII NUL-terminated, WRITE answers the address', () => {
    expect(Array.from(encodeFrame(u32(0x5f5e1000)))).toEqual(Array.from(hex('02 04 00 00 10 5E 5F 04')));
    expect(Array.from(encodeFrame(encodeVersion('1.3.1')))).toEqual(
      Array.from(hex('02 06 00 31 2E 33 2E 31 00 04')),
    );
    expect(decodeVersion(hex('31 2E 33 00 FF'))).toBe('1.3');
    expect(Array.from(encodeFrame(u32(7)))).toEqual(Array.from(hex('02 04 00 07 00 00 00 04')));
  });

  it('a READ data frame carries bCmd then the stored bytes: n + 5 bytes in all', () => {
    const frame = encodeFrame(encodeBlockData(0xb2, ascii('AB')));
    expect(Array.from(frame)).toEqual(Array.from(hex('02 03 00 B2 41 42 04')));
    expect(frame.length).toBe(2 + 5);
    expect(decodeBlockData(hex('B3 48 69'))).toEqual({ command: 0xb3, stored: ascii('Hi') });
    expect(decodeBlockData(new Uint8Array(0))).toBeUndefined();
  });

  it('the public driver reads a READ block frame without EOT: STX LEN DATA', () => {
    expect(Array.from(encodeOpenFrame(encodeBlockData(0xb2, ascii('AB'))))).toEqual(
      Array.from(hex('02 03 00 B2 41 42')),
    );
    expect(() => encodeOpenFrame(new Uint8Array(507))).toThrow(RangeError);
  });

  it('error bytes are the table values', () => {
    expect(EC).toEqual({
      UNKNOWN: 0x00,
      TIMEOUT: 0x01,
      FRAME: 0x02,
      COMMAND: 0x03,
      PARAM: 0x04,
      CRC: 0x05,
      BLOCK: 0x06,
      LOCKED: 0x07,
      HW: 0x08,
      PRINTER: 0x09,
      BUSY: 0x0a,
    });
  });

  it('the stored block CRC is CRC-32/MPEG-2 over LEN and DATA', () => {
    // Computed independently (bitwise, poly 0x04C11DB7) over 02 00 41 42.
    expect(blockCrc(ascii('AB'))).toBe(0xd545132b);
  });
});

describe('FrameParser', () => {
  it('skips bytes before STX and reassembles frames split anywhere', () => {
    const stream = hex('00 FF 06 02 03 00 B2 41 42 04 02 01 00 5A 04');
    const parser = new FrameParser();
    const out: FrameResult[] = [];
    for (const b of stream) parser.push(Uint8Array.of(b), out);
    expect(out).toEqual([
      { kind: 'frame', payload: hex('B2 41 42') },
      { kind: 'frame', payload: hex('5A') },
    ]);
    expect(parser.pending).toBe(false);
    parser.push(hex('02 05'));
    expect(parser.pending).toBe(true);
  });

  it('reports a frame that is too long, one without EOT, and an empty one', () => {
    expect(new FrameParser().push(hex('02 FB 01'))).toEqual([{ kind: 'error', reason: 'too-long' }]);
    expect(new FrameParser().push(hex('02 01 00 5A 05'))).toEqual([{ kind: 'error', reason: 'no-eot' }]);
    expect(new FrameParser().push(hex('02 00 00'))).toEqual([{ kind: 'error', reason: 'empty' }]);
  });

  it('says how many bytes it needs, never more than the rest of the frame', () => {
    const parser = new FrameParser();
    const needs: number[] = [];
    const out: FrameResult[] = [];
    const stream = hex('02 03 00 B2 41 42 04');
    let at = 0;
    while (out.length === 0) {
      const n = parser.needed();
      needs.push(n);
      parser.push(stream.subarray(at, at + n), out);
      at += n;
    }
    expect(needs).toEqual([1, 2, 3, 1]);
    expect(out).toEqual([{ kind: 'frame', payload: hex('B2 41 42') }]);
  });

  it('untilPayload: the frame is complete with its payload; the byte after it is left to the caller', () => {
    const parser = new FrameParser({ skipNoise: false, untilPayload: true });
    expect(parser.push(hex('02 03 00 B2 41'))).toEqual([]);
    expect(parser.needed()).toBe(1);
    expect(parser.push(hex('42'))).toEqual([{ kind: 'frame', payload: hex('B2 41 42') }]);
    expect(parser.pending).toBe(false);
    expect(parser.push(hex('06'))).toEqual([{ kind: 'error', reason: 'no-stx' }]);
    expect(new FrameParser({ untilPayload: true }).push(hex('02 00 00'))).toEqual([
      { kind: 'error', reason: 'empty' },
    ]);
  });

  it('the host side (skipNoise false) refuses anything but STX where a data frame must start', () => {
    expect(new FrameParser({ skipNoise: false }).push(hex('06'))).toEqual([
      { kind: 'error', reason: 'no-stx' },
    ]);
  });
});

describe('device answers', () => {
  it('ACK, ACK with an output frame, NAK with the error byte', () => {
    expect(encodeAck()).toEqual(hex('06'));
    expect(encodeAck(u32(5))).toEqual(hex('06 02 04 00 05 00 00 00 04'));
    expect(encodeNak(EC.LOCKED)).toEqual(hex('15 07'));
  });
});
