import { localParts } from '../time.js';

/**
 * Formats `writtenAt` (SFS dateTime, Europe/Bratislava) for many records quickly. Intl formatting
 * costs tens of µs per call, which dominates reading a long journal; the zone's offset only
 * changes at 01:00 UTC, a whole UTC hour, so it is looked up once per UTC hour and the rest is
 * arithmetic. Gives exactly `formatSfsDateTime` (tested over DST changes).
 */
export class WrittenAtFormatter {
  private readonly offsets = new Map<number, number>();

  format(ms: number): string {
    const hour = Math.floor(ms / 3_600_000);
    let offset = this.offsets.get(hour);
    if (offset === undefined) {
      offset = localParts(new Date(hour * 3_600_000)).offsetMinutes;
      if (this.offsets.size > 10_000) this.offsets.clear();
      this.offsets.set(hour, offset);
    }
    const local = new Date(Math.floor(ms / 1000) * 1000 + offset * 60_000);
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    const sign = offset < 0 ? '-' : '+';
    const abs = Math.abs(offset);
    return (
      `${p(local.getUTCFullYear(), 4)}-${p(local.getUTCMonth() + 1)}-${p(local.getUTCDate())}` +
      `T${p(local.getUTCHours())}:${p(local.getUTCMinutes())}:${p(local.getUTCSeconds())}` +
      `${sign}${p(Math.floor(abs / 60))}:${p(abs % 60)}`
    );
  }
}
