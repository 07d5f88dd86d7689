import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from './printer-profile.js';
import {
  describeChduTarget,
  describePrinterTarget,
  parseChduTarget,
  parsePrinterTarget,
  printerProfileOf,
  TargetSyntaxError,
} from './targets.js';

describe('parseChduTarget', () => {
  it.each([
    ['image:/var/kasa/chdu.img', { kind: 'image', path: '/var/kasa/chdu.img' }],
    ['image:chdu.img?capacity=5000', { kind: 'image', path: 'chdu.img', capacityBlocks: 5000 }],
    ['chdu-lite+tcp://127.0.0.1:9100', { kind: 'chdu-lite-tcp', host: '127.0.0.1', port: 9100 }],
    [
      'chdu-lite+serial:///dev/ttyACM0?baudRate=9600',
      { kind: 'chdu-lite-serial', path: '/dev/ttyACM0', baudRate: 9600 },
    ],
  ])('%s', (text, target) => {
    const parsed = parseChduTarget(text);
    expect(parsed).toEqual(target);
    expect(parseChduTarget(describeChduTarget(parsed))).toEqual(parsed); // describe is parseable
  });

  it('describes the capacity only when given', () => {
    expect(describeChduTarget({ kind: 'image', path: '/a.img' })).toBe('image:/a.img');
    expect(describeChduTarget({ kind: 'image', path: '/a.img', capacityBlocks: 7 })).toBe(
      'image:/a.img?capacity=7',
    );
  });

  it.each([
    'image:',
    'image:?capacity=5',
    'image:a.img?capacity=0',
    'image:a.img?capacity=-3',
    'image:a.img?capacity=1.5',
    'image:a.img?capacity=4294967296',
    'image:a.img?capacity=',
    'image:a.img?size=5',
    'floppy:/a',
  ])('refuses %s', (text) => {
    expect(() => parseChduTarget(text)).toThrow(TargetSyntaxError);
  });
});

describe('parsePrinterTarget', () => {
  it.each([
    ['virtual', { kind: 'virtual' }],
    ['none', { kind: 'none' }],
    ['chdu', { kind: 'chdu' }],
    ['tcp://192.168.1.50:9100', { kind: 'tcp', host: '192.168.1.50', port: 9100 }],
    ['serial:///dev/ttyUSB0?baudRate=9600', { kind: 'serial', path: '/dev/ttyUSB0', baudRate: 9600 }],
    ['usb:///dev/usb/lp0', { kind: 'usb', path: '/dev/usb/lp0' }],
  ])('%s', (text, target) => {
    const parsed = parsePrinterTarget(text);
    expect(parsed).toEqual(target);
    expect(parsePrinterTarget(describePrinterTarget(parsed))).toEqual(parsed);
    expect(printerProfileOf(parsed)).toEqual(DEFAULT_PROFILE);
  });

  it('reads a profile from the query, beside the adapter own parameters', () => {
    const t = parsePrinterTarget('serial:///dev/ttyS0?baudRate=19200&chars=32&codepage=cp1250');
    expect(t).toMatchObject({ kind: 'serial', path: '/dev/ttyS0', baudRate: 19200 });
    expect(printerProfileOf(t)).toEqual({
      charsPerLine: 32,
      font: 'A',
      paperWidthDots: 384,
      codepage: 'cp1250',
      codepageNumber: 45,
      qr: 'raster',
      confirm: 'received',
      bufferBytes: 4096,
    });
    expect(parsePrinterTarget(describePrinterTarget(t))).toEqual(t);
    // How printing is confirmed (ADR 0507): Epson process IDs, and the receive buffer to rewind by.
    const epson = parsePrinterTarget('tcp://p:9100?confirm=printed&bufferBytes=65536');
    expect(printerProfileOf(epson)).toMatchObject({ confirm: 'printed', bufferBytes: 65536 });
    expect(parsePrinterTarget(describePrinterTarget(epson))).toEqual(epson);
    const b = parsePrinterTarget('tcp://p:9100?chars=56&font=B&codepage=raster&model=TM-T20III');
    expect(printerProfileOf(b)).toMatchObject({
      charsPerLine: 56,
      font: 'B',
      paperWidthDots: 512,
      model: 'TM-T20III',
    });
    expect(printerProfileOf(parsePrinterTarget('virtual?chars=42'))).toMatchObject({ paperWidthDots: 512 });
  });

  it.each([
    'tcp://p:9100?chars=40',
    'tcp://p:9100?chars=64',
    'tcp://p:9100?font=C',
    'tcp://p:9100?codepage=cp437',
    'tcp://p:9100?codepageNumber=300',
    'tcp://p:9100?baudRate=9600',
    'virtual?speed=3',
    'tcp://p:9100?confirm=maybe',
    'tcp://p:9100?bufferBytes=100',
    'tcp://p:9100?bufferBytes=2000000',
    'tcp://p:9100?bufferBytes=4k',
    'usb://lp0',
    'lpt:/dev/lp0',
  ])('refuses %s', (text) => {
    expect(() => parsePrinterTarget(text)).toThrow(TargetSyntaxError);
  });
});
