import { type ApiEkasaStatus, SET_ASIDE_DETAIL } from '../documents/api-document.js';
import type { LocationRecord } from '../journal/records.js';
import { stuckCause } from '../offline/last-request.js';
import type { IndexedLocation } from '../ports/indexed-records.js';
import { formatApiDateTime, parseSfsDateTime } from '../time.js';

/** The kinds of a location in the API (capability 10). */
export type ApiLocationKind = 'gps' | 'physicalAddress' | 'other';

/** The API `Location` object (API v1.7 text, the Location models, [P] fields; capability 10). */
export interface ApiLocation<M = unknown> {
  internalId: number;
  kind: ApiLocationKind;
  gps?: { x: number; y: number };
  physicalAddress?: {
    country?: string;
    municipality: string;
    street: string;
    buildingNumber?: string;
    propertyRegistrationNumber?: string;
    postalCode?: string;
  };
  other?: string;
  createDate: string;
  /** When the SFS registered it; absent while not registered. */
  processDate?: string;
  /** The SFS response's Header@Uuid of the registration (a location gets no Id: ADR 0707). */
  uuid?: string;
  cashRegisterCode: string;
  merchant: M;
  sendingCount: number;
  status: ApiEkasaStatus;
}

/** SFS dateTime → API `dd.MM.yyyy HH:mm:ss`. */
function apiDate(sfs: string): string {
  const parsed = parseSfsDateTime(sfs);
  if (!parsed) throw new RangeError(`not an SFS dateTime: ${sfs}`);
  return formatApiDateTime(parsed);
}

export function apiLocationKind(record: LocationRecord): ApiLocationKind {
  const kind = record.sfs.location.kind;
  return kind === 'address' ? 'physicalAddress' : kind;
}

/** A stored location as the API shows it, with what later records said about it. */
export function toApiLocation<M>(indexed: IndexedLocation, merchant: M): ApiLocation<M> {
  const record = indexed.location;
  const loc = record.sfs.location;
  const out: ApiLocation<M> = {
    internalId: record.locationNo,
    kind: apiLocationKind(record),
    createDate: apiDate(record.sfs.CreateDate),
    cashRegisterCode: record.sfs.CashRegisterCode,
    merchant,
    sendingCount: indexed.sendingCount,
    status: locationStatus(indexed),
  };
  switch (loc.kind) {
    case 'gps':
      out.gps = { x: Number(loc.AxisX), y: Number(loc.AxisY) };
      break;
    case 'other':
      out.other = loc.text;
      break;
    case 'address':
      out.physicalAddress = {
        ...(record.country === undefined ? {} : { country: record.country }),
        municipality: loc.Municipality,
        street: loc.StreetName,
        ...(loc.BuildingNumber === undefined ? {} : { buildingNumber: loc.BuildingNumber }),
        ...(loc.PropertyRegistrationNumber === undefined
          ? {}
          : { propertyRegistrationNumber: loc.PropertyRegistrationNumber }),
        ...(loc.PostalCode === undefined ? {} : { postalCode: loc.PostalCode }),
      };
      break;
  }
  const accepted = indexed.accepted;
  if (accepted?.processDate !== undefined) out.processDate = apiDate(accepted.processDate);
  if (accepted?.responseUuid !== undefined) out.uuid = accepted.responseUuid;
  return out;
}

function locationStatus(indexed: IndexedLocation): ApiEkasaStatus {
  if (indexed.sendState === 'online' || indexed.sendState === 'offline-sent') return {};
  if (indexed.sendState === 'set-aside') {
    const { code, text } = stuckCause({ kind: 'location', recordNo: indexed.recordNo, item: indexed });
    return { error: { errorType: 'EKASA', errorCode: code, message: text, detail: SET_ASIDE_DETAIL } };
  }
  if (indexed.sendState === 'stuck') {
    const { code, text } = stuckCause({ kind: 'location', recordNo: indexed.recordNo, item: indexed });
    return {
      error: {
        errorType: 'EKASA',
        errorCode: code,
        message: text,
        detail: `The location is stored but the SFS rejected it; repair it with POST /api/location/update {"locationInternalId": ${indexed.location.locationNo}, "fixLocation": …} (locations are repaired newest first).`,
      },
    };
  }
  const last = indexed.lastExchange;
  return {
    warning: {
      warningType: 'OFFLINE',
      message: 'The location was not registered yet; it is stored and will be sent.',
      detail:
        last === undefined
          ? 'not sent yet'
          : `last attempt ${last.sendingCount}: ${last.outcome}${last.errorText ? ` (${last.errorText})` : ''}`,
    },
  };
}
