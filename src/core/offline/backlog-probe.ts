import { FiscalError } from '../fiscal-error.js';
import type { Clock } from '../ports/clock.js';
import type { QueueEntry } from '../ports/indexed-records.js';
import type { LocationIndex } from '../ports/location-index.js';
import type { OfflineReportIndex } from '../ports/offline-report-index.js';
import type { SendQueueIndex } from '../ports/send-queue-index.js';
import type { SettingsIndex } from '../ports/settings-index.js';
import { RESULT_CODES } from '../result-codes.js';
import type { ComponentStatus, RefusalSource, StatusProbe } from '../services/register-status.js';
import { formatApiDateTime, parseSfsDateTime } from '../time.js';
import { type Deadline, resendDeadline } from './deadline.js';
import { handedOver } from './fix-document.js';
import { describeStuck } from './last-request.js';
import { readOfflineSettings } from './offline-settings.js';
import { describeHold, registerHold, registerHoldRefusal } from './register-refusal.js';

/** Stuck items listed in status at most (the report lists them all). */
const STUCK_LISTED = 20;

type BacklogIndex = Pick<
  SendQueueIndex,
  'queueSummary' | 'stuckDocuments' | 'stuckLocations' | 'sendQueue' | 'hasUnsent' | 'setAsideItems'
> &
  Pick<OfflineReportIndex, 'oldestOffline'> &
  Pick<LocationIndex, 'lastStuckLocation'> &
  SettingsIndex;

function createDateOf(entry: QueueEntry): string {
  return entry.kind === 'document' ? entry.item.document.sfs.CreateDate : entry.item.location.sfs.CreateDate;
}

function deadlineOf(index: BacklogIndex, entry: QueueEntry | undefined, now: Date): Deadline | undefined {
  if (!entry) return undefined;
  const hours = readOfflineSettings(index.settings()).resendDeadlineHours;
  return resendDeadline(
    { firstAttemptDate: entry.item.firstAttemptDate, createDate: createDateOf(entry) },
    hours,
    now,
  );
}

const hoursText = (ms: number) =>
  `${Math.floor(Math.abs(ms) / 3600_000)} h ${Math.floor((Math.abs(ms) % 3600_000) / 60_000)} min`;

/**
 * `OFFLINE_BACKLOG` of `GET /api/status/get` (capability 10): how many documents and locations wait,
 * the oldest one's age and the time left to its resend deadline (ADR 0702) — OK while more than
 * 24 h are left, WARNING from 24 h left, ERROR when overdue — and every stuck item (up to 20) with
 * its SFS code and text (ERROR: it must be repaired).
 */
export function offlineBacklogProbe(index: BacklogIndex, clock: Clock): StatusProbe {
  return {
    component: 'OFFLINE_BACKLOG',
    check(): ComponentStatus {
      const now = clock.now();
      const summary = index.queueSummary();
      const details: Record<string, unknown> = {
        unsentDocuments: summary.unsentDocuments,
        unsentLocations: summary.unsentLocations,
        stuckDocuments: summary.stuckDocuments,
        stuckLocations: summary.stuckLocations,
        setAsideDocuments: summary.setAsideDocuments,
        setAsideLocations: summary.setAsideLocations,
      };
      const oldest = summary.oldest;
      const deadline = deadlineOf(index, oldest, now);
      if (oldest && deadline) {
        details.oldest = {
          kind: oldest.kind,
          ...(oldest.kind === 'document'
            ? {
                documentNumber: oldest.item.document.documentNumber,
                internalDocumentId: oldest.item.document.documentNo,
              }
            : { internalId: oldest.item.location.locationNo }),
          createDate: formatApiDateTime(parseSfsDateTime(createDateOf(oldest)) ?? deadline.firstAttempt),
          firstAttempt: formatApiDateTime(deadline.firstAttempt),
          ageSeconds: Math.floor(deadline.ageMs / 1000),
          sendBy: formatApiDateTime(deadline.sendBy),
          timeLeftSeconds: Math.floor(deadline.leftMs / 1000),
          deadlineState: deadline.state,
        };
      }
      const stuck: QueueEntry[] = [
        ...index
          .stuckDocuments(STUCK_LISTED)
          .map((item): QueueEntry => ({ kind: 'document', recordNo: item.recordNo, item })),
        ...index
          .stuckLocations(STUCK_LISTED)
          .map((item): QueueEntry => ({ kind: 'location', recordNo: item.recordNo, item })),
      ].slice(0, STUCK_LISTED);
      if (stuck.length > 0) details.stuck = stuck.map(describeStuck);
      const setAside = index.setAsideItems(STUCK_LISTED);
      if (setAside.length > 0) details.setAside = setAside.map(describeStuck);
      const hold = registerHold(index);
      if (hold) {
        details.registerRefusal = {
          errorCode: hold.code,
          message: hold.text,
          cause: hold.kind.cause,
          todo: hold.kind.todo,
          ...(hold.since ? { since: formatApiDateTime(hold.since) } : {}),
        };
      }

      const waiting = `${summary.unsentDocuments} document(s) and ${summary.unsentLocations} location(s) wait to be sent to the SFS`;
      if (hold) {
        // ADR 0711: the SFS refuses the register itself — the cause comes first.
        return {
          component: 'OFFLINE_BACKLOG',
          state: 'ERROR',
          reasonCode: RESULT_CODES[hold.kind.resultName].code,
          reason: describeHold(hold, summary.unsentDocuments + summary.unsentLocations),
          details,
        };
      }
      if (stuck.length > 0) {
        // The item to repair next: the oldest stuck document (documents are repaired oldest first,
        // ADR 0708), else the last stuck location (locations newest first, ADR 0717).
        const lastLocation = index.lastStuckLocation();
        const next: QueueEntry =
          stuck[0]!.kind === 'document' || lastLocation === undefined
            ? stuck[0]!
            : { kind: 'location', recordNo: lastLocation.recordNo, item: lastLocation };
        const first = describeStuck(next) as { ekasaError: { errorCode: number; message: string } };
        const name =
          next.kind === 'document'
            ? `document ${next.item.document.documentNumber}`
            : `location ${next.item.location.locationNo}`;
        // ADR 0715/0717: the repair names the item it is for, so a repeat cannot reach another.
        const repair =
          next.kind === 'document'
            ? `POST /api/document/update {"internalDocumentId": ${next.item.document.documentNo}, "fixDocument": ${handedOver(next.item) ? '{}' : '…'}}`
            : `POST /api/location/update {"locationInternalId": ${next.item.location.locationNo}, "fixLocation": …}`;
        return {
          component: 'OFFLINE_BACKLOG',
          state: 'ERROR',
          reasonCode: 501,
          reason: `${summary.stuckDocuments + summary.stuckLocations} item(s) rejected by the SFS wait for repair; the next to repair is ${name} (${first.ekasaError.errorCode}: ${first.ekasaError.message}). Repair it with ${repair}; when no fix can clear it, set it aside for the tax office with POST /api/offline/set-aside.`,
          details,
        };
      }
      const asideCount = summary.setAsideDocuments + summary.setAsideLocations;
      const aside =
        asideCount > 0
          ? ` ${asideCount} item(s) the SFS rejected are set aside for the tax office: they were never registered; report them to the tax office (POST /api/report/offline lists them).`
          : '';
      if (!oldest || !deadline) {
        return {
          component: 'OFFLINE_BACKLOG',
          state: asideCount > 0 ? 'WARNING' : 'OK',
          reasonCode: 0,
          reason: `Nothing waits to be sent.${aside}`,
          details,
        };
      }
      if (deadline.state === 'overdue') {
        return {
          component: 'OFFLINE_BACKLOG',
          state: 'ERROR',
          reasonCode: 600,
          reason: `${waiting}; the oldest is ${hoursText(deadline.leftMs)} past its deadline (${formatApiDateTime(deadline.sendBy)}): connect the register to the internet now.`,
          details,
        };
      }
      return {
        component: 'OFFLINE_BACKLOG',
        state: deadline.state === 'warning' || asideCount > 0 ? 'WARNING' : 'OK',
        reasonCode: deadline.state === 'warning' ? 600 : 0,
        reason: `${waiting}; the oldest must reach the SFS by ${formatApiDateTime(deadline.sendBy)} (${hoursText(deadline.leftMs)} left). The register sends them as soon as the SFS answers.${aside}`,
        details,
      };
    },
  };
}

/**
 * For the overall status only (never refuses a request): an SFS that refuses the register itself
 * (ADR 0711), then a backlog past its resend deadline, make the overall state name it, although
 * documents are still issued.
 */
export function backlogBlocker(index: BacklogIndex, clock: Clock): RefusalSource {
  const overdue = overdueBacklog(index, clock);
  return { refusal: () => registerHoldRefusal(index) ?? overdue.refusal() };
}

/** A backlog past its resend deadline, for the overall status (documents are still issued). */
export function overdueBacklog(index: BacklogIndex, clock: Clock): RefusalSource {
  return {
    refusal() {
      const now = clock.now();
      // The oldest item alone (two indexed looks), not the summary's six counts: this runs on
      // every status answer and state comparison, over a backlog of thousands (capability 13).
      const oldest = index.oldestOffline();
      const deadline = deadlineOf(index, oldest, now);
      if (deadline?.state !== 'overdue') return undefined;
      return new FiscalError(
        'SFS_COMMUNICATION_ERROR',
        `Stored messages are past their resend deadline (${formatApiDateTime(deadline.sendBy)}): the SFS has not been reached. Documents are still issued offline; connect the register to the internet now.`,
      );
    },
  };
}
