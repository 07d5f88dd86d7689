const ALPHABET = new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const PAD = 0x3d;
const ascii = new TextDecoder('utf-8');

/**
 * Base64 of bytes without node:buffer (core stays free of Node APIs): one pass into ASCII codes,
 * one decode to a string — an electronic receipt's PNG is tens of kilobytes (capability 13).
 */
export function bytesToBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = ALPHABET[v >> 18]!;
    out[o++] = ALPHABET[(v >> 12) & 63]!;
    out[o++] = ALPHABET[(v >> 6) & 63]!;
    out[o++] = ALPHABET[v & 63]!;
  }
  if (i < n) {
    const v = (bytes[i]! << 16) | ((i + 1 < n ? bytes[i + 1]! : 0) << 8);
    out[o++] = ALPHABET[v >> 18]!;
    out[o++] = ALPHABET[(v >> 12) & 63]!;
    out[o++] = i + 1 < n ? ALPHABET[(v >> 6) & 63]! : PAD;
    out[o++] = PAD;
  }
  return ascii.decode(out);
}

/** Strict Base64 (RFC 4648, padding optional, whitespace ignored) to bytes; undefined when not Base64. */
export function base64ToBytes(text: string): Uint8Array | undefined {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return undefined;
  try {
    const binary = atob(clean);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}
