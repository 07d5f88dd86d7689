import { type ByteReader, ReadTimeout } from '../transport/byte-reader.js';
import type { FrameParser, FrameResult } from './chdu-lite-codec.js';

/**
 * Reads one frame (or the parser's error) through the codec's FrameParser, pulling from the line
 * exactly the bytes the parser needs, all within `timeoutMs` from the call (CHDU Lite: a frame is
 * complete within 1 s). The driver (output frames) and the emulator (command frames) both read
 * frames only through this; a half-read frame is left in the parser (reset it after a timeout).
 */
export async function readFrame(
  reader: ByteReader,
  parser: FrameParser,
  timeoutMs: number,
  what = 'frame',
): Promise<FrameResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw new ReadTimeout(what, timeoutMs);
    const [result] = parser.push(await reader.readBytes(parser.needed(), left, what));
    if (result) return result;
  }
}
