import { invalidInput } from '../fiscal-error.js';
import type { DocumentQuery } from '../ports/journal-index.js';
import { quotedInput } from '../quoted-input.js';
import { isAbsent, readOptionalString } from './field-rules.js';

type Opt<T> = T | null | undefined;

/** The look-up members of `POST /api/document/get` (API v1.7 text, models other vendors of the same API add). */
export interface GetDocumentInput {
  documentBySequenceId?:
    | { sequenceId?: Opt<number>; month?: Opt<number>; year?: Opt<number> }
    | null
    | undefined;
  documentByExternalId?: { externalId?: Opt<string> } | null | undefined;
  documentByOkp?: { okp?: Opt<string> } | null | undefined;
  documentByPkp?: { pkp?: Opt<string> } | null | undefined;
  documentByUUID?: { uuid?: Opt<string> } | null | undefined;
}

const MEMBERS = [
  'documentBySequenceId',
  'documentByExternalId',
  'documentByOkp',
  'documentByPkp',
  'documentByUUID',
] as const;

/**
 * The index query of a get request: exactly one member, or none for the last document
 * (ADR 0008 §4). Two members → 701 naming the second; a member without its value → 701.
 */
export function toDocumentQuery(input: GetDocumentInput): DocumentQuery {
  const body = (input ?? {}) as Record<string, unknown>;
  const present = MEMBERS.filter((m) => !isAbsent(body[m]));
  if (present.length === 0) return { by: 'last' };
  if (present.length > 1) {
    throw invalidInput(present[1]!, `only one look-up member per request (also given: ${present[0]})`);
  }
  const member = present[0]!;
  const value = body[member];
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidInput(member, 'must be an object');
  const v = value as Record<string, unknown>;
  switch (member) {
    case 'documentBySequenceId': {
      const sequenceId = readInt(v.sequenceId, `${member}.sequenceId`, 1, 2_147_483_647);
      const month = readInt(v.month, `${member}.month`, 1, 12);
      const year = readInt(v.year, `${member}.year`, 2019, 9999);
      return { by: 'sequenceId', sequenceId, month, year };
    }
    case 'documentByExternalId':
      return { by: 'externalId', externalId: readRequired(v.externalId, `${member}.externalId`) };
    case 'documentByOkp':
      return { by: 'okp', okp: readRequired(v.okp, `${member}.okp`) };
    case 'documentByPkp':
      return { by: 'pkp', pkp: readRequired(v.pkp, `${member}.pkp`) };
    case 'documentByUUID':
      return { by: 'uuid', uuid: readRequired(v.uuid, `${member}.uuid`) };
  }
}

/**
 * The 506 sentence of a look-up that found nothing, naming the member and the value looked for
 * (ADR 0010): `Document not found: no document has externalId "sale-77" (documentByExternalId).`
 * The client's text is quoted safely and cut (quotedInput).
 */
export function notFoundSentence(query: DocumentQuery): string {
  const has = (what: string, member: string) => `Document not found: no document has ${what} (${member}).`;
  switch (query.by) {
    case 'last':
      return 'Document not found: no document has been stored on this register yet.';
    case 'sequenceId':
      return has(
        `sequenceId ${query.sequenceId} in ${String(query.month).padStart(2, '0')}/${query.year}`,
        'documentBySequenceId',
      );
    case 'externalId':
      return has(`externalId ${quotedInput(query.externalId)}`, 'documentByExternalId');
    case 'okp':
      return has(`okp ${quotedInput(query.okp)}`, 'documentByOkp');
    case 'pkp':
      return has(`pkp ${quotedInput(query.pkp)}`, 'documentByPkp');
    case 'uuid':
      return has(`uuid ${quotedInput(query.uuid)}`, 'documentByUUID');
    default:
      return 'Document not found.';
  }
}

function readInt(value: unknown, field: string, min: number, max: number): number {
  if (isAbsent(value)) throw invalidInput(field, 'is required');
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidInput(field, `must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function readRequired(value: unknown, field: string): string {
  const text = readOptionalString(value, field);
  if (text === undefined || text === '') throw invalidInput(field, 'is required');
  return text;
}
