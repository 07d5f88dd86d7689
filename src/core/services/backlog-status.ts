import type { JournalIndex } from '../ports/journal-index.js';
import { parseSfsDateTime } from '../time.js';
import type { ComponentStatus, StatusProbe } from './register-status.js';

/** SFS spec §1.9 / Act 289/2008: stored messages are sent within 96 hours (the 2026 act names no other deadline: reference §1.9). */
const RESEND_DEADLINE_MS = 96 * 3600_000;

/** `OFFLINE_BACKLOG` of `GET /api/status/get`: what waits to be sent or repaired. */
export function offlineBacklogProbe(index: JournalIndex, now: () => Date): StatusProbe {
  return {
    component: 'OFFLINE_BACKLOG',
    check(): ComponentStatus {
      const stuck = index.stuckDocuments();
      const unsent = index.unsentDocuments();
      const locations = index.unsentLocations();
      const details: Record<string, unknown> = {
        unsentDocuments: unsent.length,
        unsentLocations: locations.length,
        stuckDocuments: stuck.length,
        stuckLocations: index.stuckLocations().length,
      };
      if (stuck.length > 0) {
        return {
          component: 'OFFLINE_BACKLOG',
          state: 'ERROR',
          reasonCode: 502,
          reason: `Document ${stuck[0]!.document.documentNumber} was not accepted by the SFS and waits for repair; no fiscal document can be issued until then.`,
          details,
        };
      }
      if (unsent.length === 0 && locations.length === 0) {
        return {
          component: 'OFFLINE_BACKLOG',
          state: 'OK',
          reasonCode: 0,
          reason: 'Nothing waits to be sent.',
          details,
        };
      }
      const oldest = unsent[0] ? parseSfsDateTime(unsent[0].document.sfs.CreateDate) : undefined;
      let overdue = false;
      if (oldest) {
        const sendBy = new Date(oldest.getTime() + RESEND_DEADLINE_MS);
        overdue = now().getTime() > sendBy.getTime();
        details.oldestCreateDate = unsent[0]!.document.sfs.CreateDate;
        details.sendBy = sendBy.toISOString();
        details.overdue = overdue;
      }
      const waiting = `${unsent.length} document(s) and ${locations.length} location(s) were issued offline and wait to be sent to the SFS`;
      return {
        component: 'OFFLINE_BACKLOG',
        state: 'WARNING',
        reasonCode: 600,
        reason: overdue
          ? `${waiting}; the oldest is past the 96-hour deadline: connect the register to the internet now.`
          : `${waiting}.`,
        details,
      };
    },
  };
}
