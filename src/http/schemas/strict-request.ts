import { z } from 'zod';

/**
 * Members of other vendors' local eKasa APIs that kasa accepts and ignores **on purpose**, per
 * request object (ADR 0424; docs/http-api.md lists them). A POS written for such an API keeps
 * working; every other unknown member is refused with 701 naming it. Add a member here only with
 * the vendor, the object and why ignoring it cannot change what kasa does.
 */
export const IGNORED_VENDOR_MEMBERS = {
  Printer: {
    socket:
      'Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer.',
    numberOfCharInRow:
      'Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer.',
    codingNumber: "Papaya POS Printer: the printer's code page. kasa encodes for the configured printer.",
  },
  CashRequest: {
    footer: 'Papaya POS CashRequest: a footer text. kasa prints no free text on cash documents.',
  },
  GetDocumentRequest: {
    offlineDocuments:
      'Papaya POS GetDocumentRequest: list the unsent documents instead. Only `false` (or null) is accepted and ignored; `true` is refused (701), since kasa would answer one document instead of the list: the unsent documents are listed by POST /api/document/get/offline (or POST /api/report/offline).',
  },
  StoreMerchantRequest: {
    integrator: 'Papaya POS StoreMerchantRequest: the integrator’s name, for the vendor’s records.',
    dealer: 'Papaya POS StoreMerchantRequest: the dealer’s name, for the vendor’s records.',
  },
} as const satisfies Record<string, Record<string, string>>;

export type IgnoredMembersOf = keyof typeof IGNORED_VENDOR_MEMBERS;

/**
 * The values an ignored member may carry where ignoring another value would change the result
 * (ADR 0424): `{"offlineDocuments": true}` asks for a list, and answering the last document to it
 * would be the silent misreading the strict schemas exist to prevent. Absent here: any value.
 */
const IGNORED_MEMBER_VALUES: { [O in IgnoredMembersOf]?: Record<string, z.ZodType> } = {
  GetDocumentRequest: {
    offlineDocuments: z
      .literal(false, {
        error:
          'only false is accepted here: this endpoint answers one document; the unsent documents are listed by POST /api/document/get/offline (or POST /api/report/offline)',
      })
      .nullable(),
  },
};

/**
 * A request object that refuses unknown members (HTTP 500, 701 naming `<path>.<member>`, see
 * `validation.ts`), except the members `IGNORED_VENDOR_MEMBERS[ignoring]` lists, which are
 * accepted and dropped. The OpenAPI schema says the same: `additionalProperties: false`, the
 * ignored members described as such. Every request body (and every object in it) is built with
 * this; a test walks every route and sends an unknown member to prove it.
 */
export function strictRequest<
  Shape extends z.ZodRawShape,
  Ignoring extends IgnoredMembersOf | undefined = undefined,
>(shape: Shape, ignoring?: Ignoring) {
  const ignored: Record<string, string> = ignoring === undefined ? {} : IGNORED_VENDOR_MEMBERS[ignoring];
  const values: Record<string, z.ZodType> = (ignoring && IGNORED_MEMBER_VALUES[ignoring]) ?? {};
  const extra = Object.fromEntries(
    Object.entries(ignored).map(([member, why]) => [
      member,
      (values[member] ?? z.unknown())
        .optional()
        .describe(`Accepted and ignored (another vendor's member): ${why}`),
    ]),
  ) as IgnoredShape<Ignoring>;
  return z.strictObject({ ...shape, ...extra });
}

/** The shape the ignored members add: each optional, of any value. */
type IgnoredShape<Ignoring extends IgnoredMembersOf | undefined> = Ignoring extends IgnoredMembersOf
  ? { [Member in keyof (typeof IGNORED_VENDOR_MEMBERS)[Ignoring]]: z.ZodOptional<z.ZodType> }
  : Record<never, never>;

/** The rule text of an unknown member (validation.ts). */
export const UNKNOWN_MEMBER_RULE =
  "is not a member of this request (misspelt, or another API's name?); see /api/openapi.json";
