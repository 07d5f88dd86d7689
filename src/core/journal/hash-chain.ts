/**
 * The journal's hash chain (ADR 0101). Every record carries the chain hash of the record before
 * it (`prevHash`, 32 zero bytes for record 1); the chain hash of a record is SHA-256 over its
 * complete framed bytes, prevHash included. Changing, removing or reordering any record breaks the
 * link to the next one.
 *
 * SHA-256 comes in as a function so core stays free of node modules; adapters pass node:crypto's.
 */
export type Sha256 = (data: Uint8Array) => Uint8Array;

export const GENESIS_HASH: Uint8Array = new Uint8Array(32);

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

export function fromHex(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) throw new RangeError('not lower-case hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
