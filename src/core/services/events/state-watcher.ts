import type { NewRegisterEvent, RegisterEvents } from '../../ports/register-events.js';
import type { ComponentStatus, RegisterStatusReport } from '../register-status.js';

/** Thresholds that publish once each when crossed (docs/integration.md). */
export const CERTIFICATE_DAYS = [30, 14, 7, 0] as const;
export const CAPACITY_PERCENT = [80, 90, 95, 99, 100] as const;
export const DEADLINE_HOURS = [48, 24, 6, 0] as const;

export interface StateWatcherDeps {
  /**
   * The same report `GET /api/status/get` answers; `skipPrinter` leaves the printer unasked (its
   * last known entry is kept).
   */
  status(options: { skipPrinter: boolean }): Promise<RegisterStatusReport>;
  /** CHDÚ capacity, when it can be read now (read less often: a device may need a STATUS command). */
  capacity(): Promise<{ capacityBlocks: number; freeBlocks: number } | undefined>;
  events: RegisterEvents;
}

/** `details.oldest` of OFFLINE_BACKLOG: the oldest unsent item and its deadline (ADR 0702). */
interface OldestUnsent {
  kind: 'document' | 'location';
  documentNumber?: string;
  internalDocumentId?: number;
  internalId?: number;
  sendBy?: string;
  timeLeftSeconds?: number;
}

/** SFS outcomes that mean "no usable answer": documents go offline (SfsHealth). */
const UNREACHABLE_CODES = new Set([600, 504]);

/**
 * Derives state events by comparing one status report with the previous one (ADR 0805): printer,
 * SFS, offline backlog, register state and backup changes, and thresholds of the certificate's
 * expiry, the CHDÚ's fill level and the sending deadline. The first look only sets the baseline
 * for changes (a POS reads the state itself when it connects), but a threshold already passed is
 * published at once. Pure logic: compose runs {@link check} on a timer and after every append.
 */
export class StateWatcher {
  private last: Map<string, ComponentStatus> | undefined;
  private lastState: string | undefined;
  /** Thresholds already published, by what they are about (certificate, deadline item). */
  private readonly crossed = new Map<string, number>();

  constructor(private readonly deps: StateWatcherDeps) {}

  /**
   * One comparison; publishes what changed. `printer: false` does not ask the printer (a device
   * printer answers status over its line; the quick look after each append must not talk to it
   * while a job may be on its way) and keeps its last known entry.
   *
   * `settled` is asked once the report is read: false means a writer was at work meanwhile, so the
   * report may show a moment inside a request (a document stored, not yet registered or printed:
   * BUSY for a few hundred ms). Such a report is dropped — nothing published, the baseline kept —
   * and check() answers false so that the caller looks again once the writer is done.
   */
  async check(
    options: { capacity?: boolean; printer?: boolean; settled?: () => boolean } = {},
  ): Promise<boolean> {
    const askPrinter = options.printer !== false;
    const report = await this.deps.status({ skipPrinter: !askPrinter });
    if (options.settled && !options.settled()) return false;
    const now = new Map(report.components.map((c) => [c.component, c]));
    const before = this.last;
    const known = before?.get('PRINTER');
    if (!askPrinter && known) now.set('PRINTER', known);
    const out: NewRegisterEvent[] = [];
    if (before) {
      this.changes(before, now, out);
      if (report.state !== this.lastState) {
        out.push({
          type: 'register.state',
          data: { state: report.state, reasonCode: report.reasonCode, reason: report.reason },
        });
      }
    }
    this.thresholds(now, out);
    if (options.capacity) await this.capacity(out);
    this.last = now;
    this.lastState = report.state;
    for (const e of out) this.deps.events.publish(e);
    return true;
  }

  private changes(
    before: Map<string, ComponentStatus>,
    now: Map<string, ComponentStatus>,
    out: NewRegisterEvent[],
  ) {
    const printer = now.get('PRINTER');
    const p0 = before.get('PRINTER');
    if (printer && p0 && key(printer, 'paper') !== key(p0, 'paper')) {
      out.push({
        type: 'printer.changed',
        data: {
          state: printer.state,
          reasonCode: printer.reasonCode,
          reason: printer.reason,
          paper: printer.details?.paper ?? 'unknown',
          ...(printer.details?.target === undefined ? {} : { target: printer.details.target }),
        },
      });
    }
    const sfs = now.get('SFS');
    const s0 = before.get('SFS');
    if (sfs && s0) {
      const down = UNREACHABLE_CODES.has(sfs.reasonCode);
      const wasDown = UNREACHABLE_CODES.has(s0.reasonCode);
      if (down && !wasDown) {
        out.push({ type: 'sfs.unreachable', data: { reasonCode: sfs.reasonCode, reason: sfs.reason } });
      } else if (wasDown && !down && sfs.details?.lastOutcome === 'accepted') {
        out.push({ type: 'sfs.reachable', data: { reason: sfs.reason } });
      }
    }
    const backlog = now.get('OFFLINE_BACKLOG');
    const b0 = before.get('OFFLINE_BACKLOG');
    if (backlog && b0 && counts(backlog) !== counts(b0)) {
      out.push({ type: 'backlog.changed', data: { state: backlog.state, ...JSON.parse(counts(backlog)) } });
    }
    const backup = now.get('BACKUP');
    const k0 = before.get('BACKUP');
    if (backup && k0 && key(backup, 'lastBackupAt') !== key(k0, 'lastBackupAt')) {
      out.push({
        type: 'backup.changed',
        data: { state: backup.state, reason: backup.reason, ...(backup.details ?? {}) },
      });
    }
  }

  private thresholds(now: Map<string, ComponentStatus>, out: NewRegisterEvent[]): void {
    const merchant = now.get('MERCHANT')?.details;
    if (typeof merchant?.daysLeft === 'number' && typeof merchant.expirationDate === 'string') {
      const t = this.cross(`certificate:${merchant.expirationDate}`, merchant.daysLeft, CERTIFICATE_DAYS);
      if (t !== undefined) {
        out.push({
          type: 'certificate.expiring',
          data: { threshold: t, daysLeft: merchant.daysLeft, expirationDate: merchant.expirationDate },
        });
      }
    }
    const oldest = now.get('OFFLINE_BACKLOG')?.details?.oldest as OldestUnsent | undefined;
    if (oldest && typeof oldest.timeLeftSeconds === 'number') {
      const hoursLeft = oldest.timeLeftSeconds / 3600;
      const subject = `deadline:${oldest.kind}:${oldest.internalDocumentId ?? oldest.internalId}`;
      const t = this.cross(subject, hoursLeft, DEADLINE_HOURS);
      if (t !== undefined) {
        out.push({
          type: 'backlog.deadline',
          data: {
            threshold: t,
            hoursLeft: Math.round(hoursLeft * 10) / 10,
            sendBy: oldest.sendBy,
            kind: oldest.kind,
            ...(oldest.documentNumber === undefined ? {} : { documentNumber: oldest.documentNumber }),
            ...(oldest.internalDocumentId === undefined
              ? {}
              : { internalDocumentId: oldest.internalDocumentId }),
            overdue: hoursLeft <= 0,
          },
        });
      }
    }
  }

  private async capacity(out: NewRegisterEvent[]): Promise<void> {
    const c = await this.deps.capacity().catch(() => undefined);
    if (!c || c.capacityBlocks <= 0) return;
    const usedPercent = ((c.capacityBlocks - c.freeBlocks) / c.capacityBlocks) * 100;
    const last = this.crossed.get('capacity') ?? -1;
    const reached = CAPACITY_PERCENT.filter((p) => usedPercent >= p).at(-1);
    if (reached !== undefined && reached > last) {
      this.crossed.set('capacity', reached);
      out.push({
        type: 'chdu.capacity',
        data: {
          threshold: reached,
          usedPercent: Math.floor(usedPercent * 10) / 10,
          freeBlocks: c.freeBlocks,
          capacityBlocks: c.capacityBlocks,
        },
      });
    }
  }

  /** The lowest threshold `value` has reached for `subject`, if it was not published yet. */
  private cross(subject: string, value: number, thresholds: readonly number[]): number | undefined {
    const reached = thresholds.filter((t) => value <= t).at(-1);
    if (reached === undefined) return undefined;
    const previous = this.crossed.get(subject);
    if (previous !== undefined && previous <= reached) return undefined;
    this.crossed.set(subject, reached);
    return reached;
  }
}

function key(c: ComponentStatus, detail: string): string {
  return JSON.stringify([c.state, c.reasonCode, c.details?.[detail] ?? null]);
}

function counts(c: ComponentStatus): string {
  const d = c.details ?? {};
  return JSON.stringify({
    unsentDocuments: d.unsentDocuments ?? 0,
    unsentLocations: d.unsentLocations ?? 0,
    stuckDocuments: d.stuckDocuments ?? 0,
    stuckLocations: d.stuckLocations ?? 0,
    // ADR 0711: items set aside and a refusal of the whole register change what the POS must do.
    setAsideDocuments: d.setAsideDocuments ?? 0,
    setAsideLocations: d.setAsideLocations ?? 0,
    registerRefusal: (d.registerRefusal as { errorCode?: number } | undefined)?.errorCode ?? null,
  });
}
