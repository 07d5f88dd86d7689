import { ChduLiteChdu } from '../adapters/chdu/chdu-lite-chdu.js';
import { ImageFileChdu } from '../adapters/chdu/image-file-chdu.js';
import type { ImageIoOpener } from '../adapters/chdu/image-io.js';
import { SerialTransport, TcpTransport } from '../adapters/transport/byte-transport.js';
import { type ChduTarget, describeChduTarget } from '../config/targets.js';
import type { Chdu } from '../core/ports/chdu.js';
import type { Clock } from '../core/ports/clock.js';

export interface OpenChduOptions {
  /** Image only: create the image when missing (serve does; the `kasa chdu` commands do not). */
  create?: boolean;
  /** Image only: open without writing (the `kasa chdu` commands beside a running serve). */
  readOnly?: boolean;
  /** Image only: capacity of a new image (an existing image with another one is refused, 701). */
  capacityBlocks?: number;
  /** Image only, writable: who holds the image's lock (`serve`), named to a second writer. */
  holder?: string;
  clock?: Clock;
  /** Image only: the file-operations seam (tests make the disk run full: ADR 0116). */
  imageIo?: ImageIoOpener;
}

/**
 * The one place a `--chdu` target becomes a `Chdu` adapter (used by the composition root and the
 * `kasa chdu` commands). A CHDU Lite target opens its line on first use, so a missing device
 * shows up as 200 on the first call, not here.
 */
export async function openChdu(target: ChduTarget, options: OpenChduOptions = {}): Promise<Chdu> {
  switch (target.kind) {
    case 'image':
      return ImageFileChdu.open(target.path, {
        ...(options.create ? { create: true } : {}),
        ...(options.readOnly ? { readOnly: true } : {}),
        ...((options.capacityBlocks ?? target.capacityBlocks) === undefined
          ? {}
          : { capacityBlocks: options.capacityBlocks ?? target.capacityBlocks }),
        ...(options.holder ? { holder: options.holder } : {}),
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.imageIo ? { io: options.imageIo } : {}),
      });
    case 'chdu-lite-tcp':
      return new ChduLiteChdu(new TcpTransport(target.host, target.port), describeChduTarget(target));
    case 'chdu-lite-serial':
      return new ChduLiteChdu(new SerialTransport(target.path, target.baudRate), describeChduTarget(target));
  }
}
