import {
  DEFAULT_PROFILE,
  describePrinterProfile,
  isProfileKey,
  type PrinterProfile,
  ProfileSyntaxError,
  parsePrinterProfile,
} from './printer-profile.js';

/**
 * Device and server targets given on the command line, parsed once into typed values.
 * Parsing checks the syntax only; whether an adapter exists for a target is decided by the
 * composition root (ADR 0008 §12: an unavailable printer target is an exit-2 error, never a
 * silent fallback).
 */
export type PrinterTarget = (
  | { kind: 'virtual' }
  | { kind: 'none' }
  | { kind: 'tcp'; host: string; port: number }
  | { kind: 'serial'; path: string; baudRate: number }
  /** A USB printer through the Linux usblp device file, e.g. `/dev/usb/lp0`. */
  | { kind: 'usb'; path: string }
  | { kind: 'chdu' }
) & {
  /** Paper, font and code page (query parameters of the target); defaults when absent. */
  profile?: PrinterProfile;
};

export type ChduTarget =
  /** `capacityBlocks`: from `image:PATH?capacity=N`, the capacity of a new image (ADR 0112). */
  | { kind: 'image'; path: string; capacityBlocks?: number }
  | { kind: 'chdu-lite-tcp'; host: string; port: number }
  | { kind: 'chdu-lite-serial'; path: string; baudRate: number };

export class TargetSyntaxError extends Error {}

const HOST_PORT = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$/;

function hostPort(text: string, what: string): { host: string; port: number } {
  const m = HOST_PORT.exec(text);
  const port = m ? Number(m[2]) : Number.NaN;
  if (!m || port < 1 || port > 65535)
    throw new TargetSyntaxError(`${what} needs HOST:PORT with a port 1-65535`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

function serialPath(rest: string, what: string): { path: string; baudRate: number } {
  const [path, query] = rest.split('?', 2) as [string, string | undefined];
  if (!path.startsWith('/'))
    throw new TargetSyntaxError(`${what} needs an absolute device path, e.g. /dev/ttyUSB0`);
  let baudRate = 115200;
  if (query !== undefined) {
    const params = new URLSearchParams(query);
    for (const key of params.keys()) {
      if (key !== 'baudRate')
        throw new TargetSyntaxError(`${what}: unknown parameter "${key}" (only baudRate)`);
    }
    const b = params.get('baudRate');
    if (b !== null) {
      baudRate = Number(b);
      if (!Number.isInteger(baudRate) || baudRate < 1200 || baudRate > 921600) {
        throw new TargetSyntaxError(`${what}: baudRate must be an integer 1200-921600`);
      }
    }
  }
  return { path, baudRate };
}

/**
 * `virtual`, `none`, `chdu`, `tcp://HOST:PORT`, `serial:///dev/X?baudRate=N`, `usb:///dev/usb/lp0`,
 * each optionally with profile parameters (`?chars=42&codepage=cp1250`, see printer-profile.ts).
 */
export function parsePrinterTarget(text: string): PrinterTarget {
  const q = text.indexOf('?');
  const base = q < 0 ? text : text.slice(0, q);
  const all = new URLSearchParams(q < 0 ? '' : text.slice(q + 1));
  const own = new URLSearchParams();
  const profileParams = new URLSearchParams();
  for (const [k, v] of all) (isProfileKey(k) ? profileParams : own).append(k, v);
  let profile: PrinterProfile;
  try {
    profile = parsePrinterProfile(profileParams);
  } catch (e) {
    if (e instanceof ProfileSyntaxError) throw new TargetSyntaxError(`printer profile: ${e.message}`);
    throw e;
  }
  const withProfile = <T extends object>(t: T): T & { profile?: PrinterProfile } =>
    q < 0 || [...profileParams.keys()].length === 0 ? t : { ...t, profile };
  const noOwn = (what: string): void => {
    for (const key of own.keys()) throw new TargetSyntaxError(`${what}: unknown parameter "${key}"`);
  };
  if (base === 'virtual' || base === 'none' || base === 'chdu') {
    noOwn(base);
    return withProfile({ kind: base });
  }
  if (base.startsWith('tcp://')) {
    noOwn('tcp://');
    return withProfile({ kind: 'tcp' as const, ...hostPort(base.slice(6), 'tcp://') });
  }
  if (base.startsWith('serial://')) {
    const baud = own.get('baudRate');
    own.delete('baudRate');
    noOwn('serial://');
    const rest = base.slice(9) + (baud === null ? '' : `?baudRate=${baud}`);
    return withProfile({ kind: 'serial' as const, ...serialPath(rest, 'serial://') });
  }
  if (base.startsWith('usb://')) {
    noOwn('usb://');
    const path = base.slice(6);
    if (!path.startsWith('/'))
      throw new TargetSyntaxError('usb:// needs an absolute device path, e.g. /dev/usb/lp0');
    return withProfile({ kind: 'usb' as const, path });
  }
  throw new TargetSyntaxError(
    'use virtual, none, chdu, tcp://HOST:PORT, serial:///dev/X?baudRate=N or usb:///dev/usb/lp0',
  );
}

/** The target's profile, or the default one (48 characters, font A, CP852). */
export function printerProfileOf(target: PrinterTarget): PrinterProfile {
  return target.profile ?? DEFAULT_PROFILE;
}

/** `PATH[?capacity=N]`: the capacity applies when the image is created (ADR 0112). */
function imageTarget(rest: string): ChduTarget {
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  if (path === '') throw new TargetSyntaxError('image: needs a file path');
  if (q < 0) return { kind: 'image', path };
  const params = new URLSearchParams(rest.slice(q + 1));
  for (const key of params.keys()) {
    if (key !== 'capacity') throw new TargetSyntaxError(`image: unknown parameter "${key}" (only capacity)`);
  }
  const text = params.get('capacity');
  const capacityBlocks = Number(text);
  if (text === null || !/^\d+$/.test(text) || capacityBlocks < 1 || capacityBlocks > 0xffffffff) {
    throw new TargetSyntaxError('image: capacity must be a whole number of blocks from 1 to 4294967295');
  }
  return { kind: 'image', path, capacityBlocks };
}

export function parseChduTarget(text: string): ChduTarget {
  if (text.startsWith('image:')) return imageTarget(text.slice(6));
  if (text.startsWith('chdu-lite+tcp://')) {
    return { kind: 'chdu-lite-tcp', ...hostPort(text.slice(16), 'chdu-lite+tcp://') };
  }
  if (text.startsWith('chdu-lite+serial://')) {
    return { kind: 'chdu-lite-serial', ...serialPath(text.slice(19), 'chdu-lite+serial://') };
  }
  throw new TargetSyntaxError('use image:PATH, chdu-lite+tcp://HOST:PORT or chdu-lite+serial:///dev/X');
}

export function describePrinterTarget(t: PrinterTarget): string {
  const profile = t.profile === undefined ? '' : describePrinterProfile(t.profile);
  switch (t.kind) {
    case 'tcp':
      return `tcp://${t.host}:${t.port}${profile}`;
    case 'serial':
      return `serial://${t.path}?baudRate=${t.baudRate}${profile.replace('?', '&')}`;
    case 'usb':
      return `usb://${t.path}${profile}`;
    default:
      return `${t.kind}${profile}`;
  }
}

export function describeChduTarget(t: ChduTarget): string {
  switch (t.kind) {
    case 'image':
      return `image:${t.path}${t.capacityBlocks === undefined ? '' : `?capacity=${t.capacityBlocks}`}`;
    case 'chdu-lite-tcp':
      return `chdu-lite+tcp://${t.host}:${t.port}`;
    case 'chdu-lite-serial':
      return `chdu-lite+serial://${t.path}?baudRate=${t.baudRate}`;
  }
}
