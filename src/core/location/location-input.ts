import { isAbsent, readAsciiId, readText } from '../documents/field-rules.js';
import { isNotBlank } from '../documents/text-rules.js';
import { invalidInput } from '../fiscal-error.js';
import type { SfsLocation } from '../sfs/message.js';

/** The API `PhysicalAddress` of a location (API v1.7 text, PhysicalAddress). */
export interface PhysicalAddressInput {
  country?: string | null | undefined;
  municipality?: string | null | undefined;
  street?: string | null | undefined;
  buildingNumber?: string | null | undefined;
  propertyRegistrationNumber?: string | number | null | undefined;
  postalCode?: string | null | undefined;
}

/** The three kinds of an `UpdateLocationRequest` (API v1.7 text, the Location models); exactly one is given. */
export interface LocationKindsInput {
  physicalAddress?: PhysicalAddressInput | null | undefined;
  gps?: { x?: number | null | undefined; y?: number | null | undefined } | null | undefined;
  other?: string | null | undefined;
}

export interface ValidatedLocation {
  location: SfsLocation;
  /** `physicalAddress.country` (not part of the SFS message). */
  country?: string;
}

const KINDS = ['physicalAddress', 'gps', 'other'] as const;

/** The kinds present in the input (`null`, absent and `""` for `other` do not count). */
export function presentKinds(input: LocationKindsInput): Array<(typeof KINDS)[number]> {
  return KINDS.filter((k) => !isAbsent(input[k]) && !(k === 'other' && input.other === ''));
}

/**
 * Validates a location as the protocol reference §1.7 (spec §3.5.3) says, and builds the SFS
 * `Location`: exactly one of
 * - `gps {x: longitude, y: latitude}`: WGS-84 decimal degrees (−180…180, −90…90), each at most 20
 *   characters as written;
 * - `physicalAddress`: municipality and street 1–100 characters (street = the municipality's name
 *   where there are no streets), buildingNumber 1–20, propertyRegistrationNumber an integer
 *   1…9999999999, postalCode 5 digits;
 * - `other`: 1–255 characters (e.g. a vehicle plate), only when neither of the others is possible.
 *
 * @throws FiscalError 701 naming the field (`prefix` + field) and the rule.
 */
export function validateLocation(input: LocationKindsInput, prefix = ''): ValidatedLocation {
  const kinds = presentKinds(input);
  if (kinds.length !== 1) {
    throw invalidInput(
      prefix === '' ? 'location' : prefix.replace(/\.$/, ''),
      kinds.length === 0
        ? 'give exactly one of physicalAddress, gps or other'
        : `give exactly one of physicalAddress, gps or other, not ${kinds.join(' and ')}`,
    );
  }
  switch (kinds[0]!) {
    case 'gps':
      return { location: readGps(input.gps!, `${prefix}gps`) };
    case 'other': {
      const text = readText(input.other, `${prefix}other`, 255, { allowNewlines: false, allowTab: false });
      if (text === undefined || !isNotBlank(text))
        throw invalidInput(`${prefix}other`, 'must be 1–255 characters');
      return { location: { kind: 'other', text } };
    }
    case 'physicalAddress':
      return readAddress(input.physicalAddress!, `${prefix}physicalAddress`);
  }
}

function readGps(gps: NonNullable<LocationKindsInput['gps']>, field: string): SfsLocation {
  return {
    kind: 'gps',
    AxisX: degrees(gps.x, `${field}.x`, 180, 'longitude'),
    AxisY: degrees(gps.y, `${field}.y`, 90, 'latitude'),
  };
}

/** A coordinate as the SFS AxisX/AxisY text: plain decimal notation, at most 20 characters. */
function degrees(value: unknown, field: string, limit: number, what: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw invalidInput(
      field,
      isAbsent(value) ? `is required (${what} in decimal degrees)` : 'must be a number',
    );
  }
  if (Math.abs(value) > limit) throw invalidInput(field, `${what} must be between -${limit} and ${limit}`);
  let text = Object.is(value, -0) ? '0' : String(value);
  if (/e/i.test(text)) text = value.toFixed(12).replace(/0+$/, '').replace(/\.$/, '');
  if (text.length > 20) throw invalidInput(field, 'must be at most 20 characters as written (SFS Gps)');
  return text;
}

function readAddress(address: PhysicalAddressInput, field: string): ValidatedLocation {
  const text = (value: unknown, name: string, max: number, required: boolean): string | undefined => {
    const read = readText(value, `${field}.${name}`, max, { allowNewlines: false, allowTab: false });
    if (read !== undefined && !isNotBlank(read)) throw invalidInput(`${field}.${name}`, 'must not be blank');
    if (read === undefined && required)
      throw invalidInput(`${field}.${name}`, `is required (1–${max} characters)`);
    return read;
  };
  const municipality = text(address.municipality, 'municipality', 100, true)!;
  const street = text(address.street, 'street', 100, true)!;
  const buildingNumber = readAsciiId(address.buildingNumber, `${field}.buildingNumber`, 20);
  const registration = readRegistrationNumber(
    address.propertyRegistrationNumber,
    `${field}.propertyRegistrationNumber`,
  );
  const postalCode = readAsciiId(address.postalCode, `${field}.postalCode`, 5);
  if (postalCode !== undefined && !/^[0-9]{5}$/.test(postalCode)) {
    throw invalidInput(`${field}.postalCode`, 'must be 5 digits');
  }
  const country = text(address.country, 'country', 100, false);
  const location: SfsLocation = { kind: 'address', Municipality: municipality, StreetName: street };
  if (buildingNumber !== undefined) location.BuildingNumber = buildingNumber;
  if (registration !== undefined) location.PropertyRegistrationNumber = registration;
  if (postalCode !== undefined) location.PostalCode = postalCode;
  return country === undefined ? { location } : { location, country };
}

function readRegistrationNumber(value: unknown, field: string): string | undefined {
  if (isAbsent(value) || value === '') return undefined;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : undefined;
  if (text === undefined || !/^[1-9][0-9]{0,9}$/.test(text) || Number(text) > 9_999_999_999) {
    throw invalidInput(field, 'must be a whole number from 1 to 9999999999 (súpisné číslo)');
  }
  return text;
}
