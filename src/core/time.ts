/**
 * Fiscal time. Every fiscal date is Europe/Bratislava local time, whatever the host's TZ
 * (SFS spec §3.3.12: dateTime `YYYY-MM-DDThh:mm:ss±hh:mm`, offset of CET/CEST for that instant,
 * otherwise error -132). Nothing here reads the host's time zone.
 */
export const FISCAL_TIME_ZONE = 'Europe/Bratislava';

/** Wall-clock parts of an instant in Europe/Bratislava, plus the UTC offset in minutes. */
export interface LocalParts {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number;
  minute: number;
  second: number;
  offsetMinutes: number; // +60 (CET) or +120 (CEST)
}

const partsFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: FISCAL_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

export function localParts(instant: Date): LocalParts {
  const ms = instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('invalid date');
  if (ms < UNIFORM_TRANSITIONS_FROM_MS) return intlParts(instant);
  const offsetMinutes = offsetInHour(Math.floor(ms / HOUR_MS));
  const local = new Date(Math.floor(ms / 1000) * 1000 + offsetMinutes * 60_000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    offsetMinutes,
  };
}

const HOUR_MS = 3_600_000;
/**
 * Since 1996 Europe/Bratislava changes its offset only at 01:00 UTC (EU Directive 2000/84/EC and
 * its predecessors: summer time starts and ends at 1 a.m. GMT), so within one UTC hour the offset
 * is that of the hour's start. One Intl lookup per hour serves every instant in it; localParts is
 * called several times for every document (capability 13).
 */
const UNIFORM_TRANSITIONS_FROM_MS = Date.UTC(1996, 0, 1);
const offsetsByHour = new Map<number, number>();

function offsetInHour(hour: number): number {
  let offset = offsetsByHour.get(hour);
  if (offset === undefined) {
    offset = intlParts(new Date(hour * HOUR_MS)).offsetMinutes;
    if (offsetsByHour.size >= 1024) offsetsByHour.clear();
    offsetsByHour.set(hour, offset);
  }
  return offset;
}

/** The parts as Intl gives them for the zone (any instant). */
function intlParts(instant: Date): LocalParts {
  const ms = instant.getTime();
  const p: Record<string, number> = {};
  for (const part of partsFormat.formatToParts(instant)) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  const wholeSecondMs = Math.floor(ms / 1000) * 1000;
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return {
    year: p.year!,
    month: p.month!,
    day: p.day!,
    hour: p.hour!,
    minute: p.minute!,
    second: p.second!,
    offsetMinutes: Math.round((asUtc - wholeSecondMs) / 60000),
  };
}

/** Test seam: localParts through Intl alone, to check the per-hour offsets against it. */
export const localPartsByIntl = intlParts;

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** SFS dateTime: `2026-03-02T10:15:30+01:00` (25 chars, no fractions, never `Z`). */
export function formatSfsDateTime(instant: Date): string {
  const t = localParts(instant);
  const sign = t.offsetMinutes < 0 ? '-' : '+';
  const off = Math.abs(t.offsetMinutes);
  return `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${sign}${pad(Math.floor(off / 60))}:${pad(off % 60)}`;
}

/** API date format of the v1.7 text: `dd.MM.yyyy HH:mm:ss`, local time, no zone. */
export function formatApiDateTime(instant: Date): string {
  const t = localParts(instant);
  return `${pad(t.day)}.${pad(t.month)}.${t.year} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
}

/** Offline QR date part (SFS spec §2.4): `yyMMddHHmmss`, local time. */
export function formatQrDateTime(instant: Date): string {
  const t = localParts(instant);
  return `${pad(t.year % 100)}${pad(t.month)}${pad(t.day)}${pad(t.hour)}${pad(t.minute)}${pad(t.second)}`;
}

const SFS_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/;

/** Parses an SFS dateTime (with its explicit offset). Returns undefined when it is not one. */
export function parseSfsDateTime(text: string): Date | undefined {
  const m = SFS_DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, sign, oh, om] = m;
  const offset = (Number(oh) * 60 + Number(om)) * (sign === '-' ? -1 : 1);
  const utc =
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offset * 60000;
  const date = new Date(utc);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Parses an API input date: `dd.MM.yyyy HH:mm:ss` (Europe/Bratislava local time) or ISO 8601 with
 * an explicit offset or `Z`. Returns undefined when the text is neither or names no real instant.
 */
export function parseApiDateTime(text: string): Date | undefined {
  const local = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (local) {
    const [, d, mo, y, h, mi, s] = local.map(Number) as number[];
    return fromLocal(y!, mo!, d!, h!, mi!, s!);
  }
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (iso) {
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? undefined : date;
  }
  return undefined;
}

/**
 * The instant at which Europe/Bratislava wall clock shows the given time. For a wall time that
 * occurs twice (autumn change) the earlier instant is returned; one that does not exist (spring
 * gap) gives undefined.
 */
export function fromLocal(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): Date | undefined {
  const naive = Date.UTC(year, month - 1, day, hour, minute, second);
  for (const offset of [120, 60]) {
    const candidate = new Date(naive - offset * 60000);
    const t = localParts(candidate);
    if (
      t.year === year &&
      t.month === month &&
      t.day === day &&
      t.hour === hour &&
      t.minute === minute &&
      t.second === second
    ) {
      return candidate;
    }
  }
  return undefined;
}
