import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import { checkLocationLexical } from '../sfs/message-lexical.js';
import { type LocationKindsInput, validateLocation } from './location-input.js';

const field = (input: LocationKindsInput) => {
  try {
    validateLocation(input);
  } catch (e) {
    if (FiscalError.is(e, 'INVALID_INPUT')) return e.details?.field;
    throw e;
  }
  return 'valid';
};

/** What kasa builds must pass the SFS schema rules the simulator applies (-2). */
const passesSfsSchema = (input: LocationKindsInput) =>
  checkLocationLexical({
    header: {
      Uuid: '11111111-1111-4111-8111-111111111111',
      RequestDate: '2026-03-02T10:00:00+01:00',
      SwId: '8639BA17A8EEEF50FF559B90D36AE13B5E93DCDE',
      SendingCount: '1',
    },
    data: {
      Dic: '1234567890',
      CashRegisterCode: '88812345678900001',
      CreateDate: '2026-03-02T10:00:00+01:00',
      location: validateLocation(input).location,
    },
  }) === undefined;

describe('validateLocation (protocol reference §1.7)', () => {
  it('GPS: x is the longitude (AxisX), y the latitude (AxisY), written as plain decimals', () => {
    expect(validateLocation({ gps: { x: 17.112415, y: 48.1467828 } }).location).toEqual({
      kind: 'gps',
      AxisX: '17.112415',
      AxisY: '48.1467828',
    });
    expect(validateLocation({ gps: { x: -0, y: 1e-7 } }).location).toEqual({
      kind: 'gps',
      AxisX: '0',
      AxisY: '0.0000001',
    });
    for (const gps of [
      { x: 180, y: -90 },
      { x: -179.999999, y: 89.9999999 },
      { x: 1e-7, y: 0 },
    ]) {
      expect(passesSfsSchema({ gps })).toBe(true);
    }
  });

  it('address: the SFS attributes, country kept aside; the other kind as free text', () => {
    const r = validateLocation({
      physicalAddress: {
        country: 'Slovensko',
        municipality: 'Košice',
        street: 'Hlavná',
        buildingNumber: '12A',
        propertyRegistrationNumber: 1234,
        postalCode: '04001',
      },
    });
    expect(r).toEqual({
      location: {
        kind: 'address',
        Municipality: 'Košice',
        StreetName: 'Hlavná',
        BuildingNumber: '12A',
        PropertyRegistrationNumber: '1234',
        PostalCode: '04001',
      },
      country: 'Slovensko',
    });
    expect(passesSfsSchema({ physicalAddress: { municipality: 'Košice', street: 'Košice' } })).toBe(true);
    expect(validateLocation({ other: 'Taxi BA-123AA' }).location).toEqual({
      kind: 'other',
      text: 'Taxi BA-123AA',
    });
    expect(passesSfsSchema({ other: 'ž'.repeat(255) })).toBe(true);
  });

  it('exactly one kind, within the ranges and lengths, else 701 naming the field', () => {
    expect(field({})).toBe('location');
    expect(field({ other: '' })).toBe('location');
    expect(field({ gps: { x: 1, y: 1 }, physicalAddress: { municipality: 'A', street: 'B' } })).toBe(
      'location',
    );
    expect(field({ gps: { x: 180.000001, y: 0 } })).toBe('gps.x');
    expect(field({ gps: { x: 0, y: 90.5 } })).toBe('gps.y');
    expect(field({ gps: { y: 0 } })).toBe('gps.x');
    expect(field({ other: 'x'.repeat(256) })).toBe('other');
    expect(field({ other: 'a\nb' })).toBe('other');
    expect(field({ physicalAddress: { municipality: 'A' } })).toBe('physicalAddress.street');
    expect(field({ physicalAddress: { municipality: 'A', street: 'B', postalCode: '8110' } })).toBe(
      'physicalAddress.postalCode',
    );
    expect(
      field({
        physicalAddress: { municipality: 'A', street: 'B', propertyRegistrationNumber: 10_000_000_000 },
      }),
    ).toBe('physicalAddress.propertyRegistrationNumber');
    expect(field({ physicalAddress: { municipality: 'A', street: 'B', buildingNumber: 'č. 5' } })).toBe(
      'physicalAddress.buildingNumber',
    );
  });
});
