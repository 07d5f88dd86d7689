import { FiscalError } from '../fiscal-error.js';
import { SW_ID_PATTERN, type SwIdParts, swId } from '../sfs/sw-id.js';
import type { ConsistencyProbe } from './consistency-check.js';

/** What `GET /api/version` and `GET /api/status/get` show about the SwId (ADR 0421). */
export interface SwIdReport {
  /** The SwId sent to the SFS; absent while it is derived and the CHDÚ has not told its version. */
  swId?: string;
  /** `configured`: `--sw-id` (the certified one); `derived`: computed from the names below; `pending`. */
  swIdOrigin: 'configured' | 'derived' | 'pending';
  /** For a derived SwId: the text hashed (`manufacturer|product|CHDÚ|version|CHDÚ version`). */
  swIdDerivedFrom?: string;
}

export interface SwIdSourceOptions {
  /** `--sw-id`: the SwId the certification assigned; used as given (upper case). */
  configured?: string | undefined;
  /** The software names of a derived SwId. */
  software: Pick<SwIdParts, 'manufacturer' | 'product' | 'version'>;
  /** The CHDÚ in use: its model name and the firmware version it reports. */
  chdu: { name: string; version(): Promise<string> };
}

/**
 * The SwId in force (SFS spec §2.3). Configured (`--sw-id`), it is used as is. Otherwise it is
 * derived from kasa's names and the actual CHDÚ: its model and the firmware version the device
 * reports (the image file its own, a CHDU Lite its VERSION2 answer) — read once, when the CHDÚ
 * first answers. Until then there is no SwId: {@link probe} makes the consistency check fail, so
 * no document is issued that would need one (ADR 0421).
 */
export class SwIdSource {
  readonly #options: SwIdSourceOptions;
  #chduVersion: string | undefined;

  constructor(options: SwIdSourceOptions) {
    if (options.configured !== undefined && !SW_ID_PATTERN.test(options.configured)) {
      throw new RangeError('a configured SwId must be 40 hexadecimal digits');
    }
    this.#options = options;
  }

  /** The SwId for a message; 200 CHDU_NOT_CONNECTED while it cannot be known yet. */
  get value(): string {
    const report = this.report();
    if (report.swId === undefined) {
      throw new FiscalError(
        'CHDU_NOT_CONNECTED',
        'The SwId is derived from the CHDÚ firmware version, which the CHDÚ has not reported yet; connect the CHDÚ or set --sw-id.',
      );
    }
    return report.swId;
  }

  report(): SwIdReport {
    const configured = this.#options.configured;
    if (configured !== undefined) return { swId: configured, swIdOrigin: 'configured' };
    if (this.#chduVersion === undefined) return { swIdOrigin: 'pending' };
    const parts: SwIdParts = {
      ...this.#options.software,
      chduName: this.#options.chdu.name,
      chduVersion: this.#chduVersion,
    };
    return {
      swId: swId(parts),
      swIdOrigin: 'derived',
      swIdDerivedFrom: [
        parts.manufacturer,
        parts.product,
        parts.chduName,
        parts.version,
        parts.chduVersion,
      ].join('|'),
    };
  }

  /** Reads the CHDÚ version if it is still needed; true when the SwId is known. */
  async refresh(): Promise<boolean> {
    if (this.#options.configured !== undefined || this.#chduVersion !== undefined) return true;
    try {
      await this.probe().run();
      return true;
    } catch {
      return false;
    }
  }

  /** A consistency-check step: fails with the CHDÚ's error while a derived SwId is not known. */
  probe(): ConsistencyProbe {
    return {
      name: 'sw-id',
      run: async () => {
        if (this.#options.configured !== undefined || this.#chduVersion !== undefined) return;
        const version = (await this.#options.chdu.version()).trim();
        if (version === '') {
          throw new FiscalError(
            'CHDU_NOT_CONNECTED',
            'The CHDÚ reports an empty firmware version; the SwId cannot be derived from it (set --sw-id).',
          );
        }
        this.#chduVersion = version;
      },
    };
  }
}
