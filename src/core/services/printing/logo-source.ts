import { base64ToBytes } from '../../base64.js';
import type { Journal } from '../../ports/journal.js';
import type { JournalIndex } from '../../ports/journal-index.js';

/** The image key receipts name the logo by (`image` block ref, renderer and printer maps). */
export const LOGO_REF = 'logo';

/**
 * The logo in force (ADR 0509): the last `logo` record of the CHDÚ, found through the index and
 * read once at start, then replaced whenever `POST /api/image/store` writes a new one. Receipts
 * printed or rendered from then on are headed by it.
 */
export class LogoSource {
  private png: Uint8Array | undefined;

  /** `enabled`: the `logoEnabled` setting; off, receipts are not headed by the logo (capability 12). */
  constructor(
    private readonly journal: Journal,
    private readonly index: JournalIndex,
    private readonly enabled: () => boolean = () => true,
  ) {}

  /** Reads the logo in force from the CHDÚ (a missing or unreadable record means none). */
  async load(): Promise<void> {
    const recordNo = this.index.currentLogo?.();
    if (recordNo === undefined) {
      this.png = undefined;
      return;
    }
    const record = await this.journal.get(recordNo).catch(() => undefined);
    this.png =
      record?.type === 'logo' && record.body.png !== undefined ? base64ToBytes(record.body.png) : undefined;
  }

  current(): Uint8Array | undefined {
    return this.png;
  }

  set(png: Uint8Array | undefined): void {
    this.png = png;
  }

  /** The image map for a print job or a rendering, empty without a logo or with it switched off. */
  images(): ReadonlyMap<string, Uint8Array> {
    return this.png === undefined || !this.enabled() ? new Map() : new Map([[LOGO_REF, this.png]]);
  }
}
