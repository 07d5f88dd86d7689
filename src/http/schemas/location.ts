import { z } from 'zod';
import type { ApiLocation } from '../../core/location/api-location.js';
import type { LocationKindsInput } from '../../core/location/location-input.js';
import type { MerchantView } from '../../core/merchant/merchant-record.js';
import type { FixLocationInput } from '../../core/services/offline/repair-location.js';
import { internalNumber } from './common.js';
import { EkasaStatus } from './documents.js';
import { Merchant, PhysicalAddress } from './merchant.js';
import { exampleLocation } from './offline-examples.js';
import { strictRequest } from './strict-request.js';

/**
 * Location schemas (API text: Location API; API v1.7 text, the Location models). The schemas check the JSON shape;
 * the values (ranges, lengths, exactly one kind) are checked by `src/core/location/`, which
 * answers 701 naming the field.
 */
export const Gps = strictRequest({
  x: z.number().nullish().describe('Longitude, WGS-84 decimal degrees (−180 to 180), e.g. 17.112415.'),
  y: z.number().nullish().describe('Latitude, WGS-84 decimal degrees (−90 to 90), e.g. 48.1467828.'),
}).meta({ id: 'Gps' });

export const PhysicalAddressInput = strictRequest({
  country: z.string().nullish().describe('Kept with the location, not sent to the SFS.'),
  municipality: z.string().nullish().describe('1–100 characters; required.'),
  street: z
    .string()
    .nullish()
    .describe('1–100 characters; required (the municipality name where there are no streets).'),
  buildingNumber: z.string().nullish().describe('Orientation number, 1–20 characters.'),
  propertyRegistrationNumber: z
    .union([z.string(), z.number()])
    .nullish()
    .describe('Registry number (súpisné číslo), a whole number 1–9999999999.'),
  postalCode: z.string().nullish().describe('5 digits.'),
}).meta({ id: 'LocationAddress' });

const kinds = {
  physicalAddress: PhysicalAddressInput.nullish(),
  gps: Gps.nullish(),
  other: z
    .string()
    .nullish()
    .describe('1–255 characters, e.g. a vehicle plate; only when neither GPS nor an address is possible.'),
};

export const FixLocation = strictRequest({
  createDate: z
    .string()
    .nullish()
    .describe(
      'New creation time: dd.MM.yyyy HH:mm:ss (Bratislava) or ISO 8601; not in the future, not before the previous location, not before the certificate became valid.',
    ),
  ...kinds,
  useLastMerchant: z.boolean().nullish().describe('Sign and send it as the merchant in force.'),
}).meta({
  id: 'FixLocation',
  examples: [
    { createDate: '03.09.2025 16:56:02', gps: { x: 17.1427408, y: 48.1455817 }, useLastMerchant: true },
    {},
  ],
  description: 'Only the members given change; `{}` sends the rejected location again as it is.',
});

export const UpdateLocationRequest = strictRequest({
  ...kinds,
  fixLocation: FixLocation.nullish(),
  locationInternalId: internalNumber()
    .nullish()
    .describe(
      'Extension (ADR 0717), recommended with fixLocation and only with it: the location the fix is for (its internalId, as the 501/502 answer, the offline report and offline/set-aside name it); it must be the stuck location stored last, the one a fix without it repairs. Makes a repeated repair safe: once that location is repaired, the answer is that location as it stands (0), nothing sent again — never a fix of another stuck location. Without it the last rejected location is repaired, as the API text says.',
    ),
}).meta({
  id: 'UpdateLocationRequest',
  description:
    'Exactly one of physicalAddress, gps, other — or fixLocation alone (with locationInternalId naming the location, recommended), which repairs the last location the SFS rejected. PORTABLE registers only (701 otherwise).',
  examples: [
    { gps: { x: 17.112415, y: 48.1467828 } },
    {
      physicalAddress: {
        country: 'Slovenská Republika',
        municipality: 'Bratislava',
        street: 'Heydukova',
        buildingNumber: '2155',
        propertyRegistrationNumber: '6',
        postalCode: '81108',
      },
    },
    { other: 'Taxi SPZ AB12345' },
    { locationInternalId: 2, fixLocation: {} },
    {
      locationInternalId: 2,
      fixLocation: {
        createDate: '03.09.2025 16:56:02',
        gps: { x: 17.1427408, y: 48.1455817 },
        useLastMerchant: true,
      },
    },
  ],
});

export const Location = z
  .object({
    internalId: z.number().int().describe('Running number of the locations of this CHDÚ.'),
    kind: z.enum(['gps', 'physicalAddress', 'other']),
    gps: z.object({ x: z.number(), y: z.number() }).optional(),
    physicalAddress: PhysicalAddress.optional(),
    other: z.string().optional(),
    createDate: z.string().describe('dd.MM.yyyy HH:mm:ss, Europe/Bratislava'),
    processDate: z.string().optional().describe('When the SFS registered it; absent until then.'),
    uuid: z
      .string()
      .optional()
      .describe(
        'The SFS response Uuid of the registration (a location gets no receipt Id); absent until registered.',
      ),
    cashRegisterCode: z.string(),
    merchant: Merchant,
    sendingCount: z.number().int().describe('Send attempts so far.'),
    status: EkasaStatus,
  })
  .meta({ id: 'Location' });

export const LocationResponse = z
  .object({ resultCode: z.number().int(), location: Location })
  .meta({ id: 'LocationResponse', examples: [{ resultCode: 0, location: exampleLocation }] });

type Assert<T extends true> = T;
export type _LocationInputMatches = Assert<
  z.output<typeof UpdateLocationRequest> extends LocationKindsInput ? true : false
>;
export type _FixLocationMatches = Assert<
  z.output<typeof FixLocation> extends FixLocationInput ? true : false
>;
export type _LocationMatches = Assert<
  ApiLocation<MerchantView> extends z.input<typeof Location> ? true : false
>;
