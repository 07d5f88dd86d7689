/**
 * CRC-32/MPEG-2: poly 0x04C11DB7, init 0xFFFFFFFF, no reflection, no final XOR. The CHDU Lite
 * computes it over LEN and DATA of every block it stores (the maker's specification P150300 v1.3, checksum); the image
 * file and the journal framing use the same function so one implementation is tested once.
 * Check value for ASCII "123456789": 0x0376E6E7.
 */
const TABLE = buildTable();

function buildTable(): Uint32Array {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let bit = 0; bit < 8; bit++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    table[i] = c >>> 0;
  }
  return table;
}

/** Continues a CRC over `data` (pass the previous result as `crc`, or nothing to start). */
export function crc32Mpeg2(data: Uint8Array, crc = 0xffffffff): number {
  let c = crc >>> 0;
  for (let i = 0; i < data.length; i++) {
    c = ((c << 8) ^ TABLE[((c >>> 24) ^ data[i]!) & 0xff]!) >>> 0;
  }
  return c >>> 0;
}
