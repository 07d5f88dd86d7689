/**
 * Events for the POS (capability 14, ADR 0805): what happened to documents and what changed in the
 * register's state, pushed to `GET /api/events` (Server-Sent Events) so a POS need not poll.
 * Polling `GET /api/status/get` keeps working; events only save the wait.
 *
 * Neither role raises a result code: publishing never fails and never blocks the caller (a
 * listener's trouble is the feed's, not the use case's).
 */
export interface RegisterEvents {
  /** Publishes one event to every subscriber and into the replay window. */
  publish(event: NewRegisterEvent): void;
}

/** Reading side of the events, for the HTTP stream. */
export interface RegisterEventFeed {
  /**
   * Events after `lastEventId`, for a client that reconnects (`Last-Event-ID`). `complete` is
   * false when some of them are no longer kept (older than the window, or an id of an earlier run
   * of kasa): the client must then read the state afresh (`GET /api/status/get`).
   */
  since(lastEventId: string | undefined): { events: RegisterEvent[]; complete: boolean };
  /** Calls `listener` with every event published from now on; returns the unsubscribe function. */
  subscribe(listener: (event: RegisterEvent) => void): () => void;
  /** How many events are kept for replay. */
  readonly window: number;
}

/** Every event type, with the data it carries (docs/integration.md lists them). */
export const REGISTER_EVENT_TYPES = [
  /** A fiscal document was written into the CHDÚ (PD, UF, ND, VK, VY). */
  'document.stored',
  /** The SFS accepted a document (at issue or at a resend): it has its receipt id (`uuid`). */
  'document.registered',
  /** The SFS did not answer in time: the document is offline and waits to be sent. */
  'document.offline',
  /** The SFS refused a document (or its answer could not be trusted): it is stuck until repaired. */
  'document.rejected',
  /**
   * An operator set a rejected document aside for the tax office (`POST /api/offline/set-aside`,
   * ADR 0711): it is never sent again, never registered, and no longer blocks sales.
   */
  'document.set-aside',
  /** Offline backlog size changed (unsent and stuck documents and locations). */
  'backlog.changed',
  /** The oldest unsent item nears (or passed) the 96-hour sending deadline: 48, 24, 6, 0 hours left. */
  'backlog.deadline',
  /** Printer state changed: ready, paper near end or out, cover open, disconnected. */
  'printer.changed',
  /** The SFS stopped answering (documents are issued offline). */
  'sfs.unreachable',
  /** The SFS answers again. */
  'sfs.reachable',
  /** The merchant certificate expires within 30, 14 or 7 days, or has expired (0). */
  'certificate.expiring',
  /** The CHDÚ has passed 80, 90, 95 or 99 % of its capacity, or is full (100). */
  'chdu.capacity',
  /** The register's overall state changed (READY, or the code it now refuses with). */
  'register.state',
  /** The backup's age or state changed (BACKUP status component). */
  'backup.changed',
] as const;
export type RegisterEventType = (typeof REGISTER_EVENT_TYPES)[number];

export interface NewRegisterEvent {
  type: RegisterEventType;
  /** JSON-safe facts of the event (ids, numbers, states); never a secret. */
  data: Record<string, unknown>;
}

export interface RegisterEvent extends NewRegisterEvent {
  /** Opaque, unique, increasing within one run of kasa; what `Last-Event-ID` names. */
  id: string;
  /** When it was published (ISO 8601 UTC). */
  at: string;
}
