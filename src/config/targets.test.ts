import { describe, expect, it } from 'vitest';
import { describeChduTarget, parseChduTarget, TargetSyntaxError } from './targets.js';

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
