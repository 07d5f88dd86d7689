import type { ImageIo, ImageIoOpener } from '../../src/adapters/chdu/image-io.js';
import { openImageIo } from '../../src/adapters/chdu/image-io.js';

/**
 * The disk under an image-file CHDÚ running full, at the file-system seam (ADR 0116): while
 * `full`, a write puts down what fits of its first part and then fails with ENOSPC, exactly as
 * write(2) does on a full ext4 (a short write, then ENOSPC), and statfs reports no room. Reads,
 * truncate and sync stay real, as they do on a full disk.
 */
export function fullDisk(): { opener: ImageIoOpener; full: boolean; failedWrites: number } {
  const disk = {
    full: false,
    failedWrites: 0,
    opener: (async (path, writable, durable) => {
      const io = await openImageIo(path, writable, durable);
      const wrapped: ImageIo = {
        ...io,
        durableWrites: io.durableWrites,
        async write(buf, position) {
          if (!disk.full) return io.write(buf, position);
          disk.failedWrites++;
          await io.write(buf.subarray(0, Math.min(buf.length, 100)), position);
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
            code: 'ENOSPC',
            errno: -28,
            syscall: 'write',
          });
        },
        available: async () => (disk.full ? 0 : io.available()),
      };
      return wrapped;
    }) as ImageIoOpener,
  };
  return disk;
}
