/**
 * The limits every document request is checked against, in one place, so the zod schemas that
 * document the API and the core validation cannot drift. Sources: protocol reference §1.4 (SFS
 * XSD ranges), §1.1 (characters), S9 (NineDigit DTO comments; sources in ADR 0009); kasa's own
 * choices are ADR 0403.
 */
export const LIMITS = {
  /** SFS §2.6: at most 500 items per document. */
  maxItems: 500,
  /** SFS Item Name 1–255 characters (Unicode code points). */
  nameMaxChars: 255,
  /** SFS Amount, item Price: −10 000 000 … 10 000 000 (2 decimals). */
  maxAbsAmountCents: 1_000_000_000n,
  /** API unit price: −10 000 000 … 10 000 000, up to 6 decimals (S9, ADR 0400). */
  maxAbsUnitPriceMicros: 10_000_000_000_000n,
  /** SFS Quantity 0 … 10 000 000, 4 decimals. */
  maxQuantityUnits: 100_000_000_000n,
  /** SFS InvoiceNumber 1–50. */
  invoiceIdMaxChars: 50,
  /** SFS ReferenceReceiptId 1–44. */
  referenceDocumentIdMaxChars: 44,
  /** SFS VoucherNumber 1–50. */
  voucherNumberMaxChars: 50,
  /** SFS CustomerId / SellerId `[0-9a-zA-Z]{1,50}`. */
  partyIdPattern: /^[0-9a-zA-Z]{1,50}$/,
  /** POS ids (`externalId` of documents, items, cash): 1–50 (capability 6). */
  externalIdMaxChars: 50,
  /** Printed free texts (kasa's choice, ADR 0403). */
  headerMaxChars: 500,
  footerMaxChars: 500,
  /** Payment method names and count (kasa's choice, ADR 0403). */
  paymentNameMaxChars: 50,
  maxPayments: 20,
  /** SFS ParagonNumber is unsignedInt; the API field is int32, and paragóny start at 1. */
  maxParagonNumber: 2_147_483_647,
  /** The `Idempotency-Key` header (ADR 0008 §7, capability 6). */
  idempotencyKeyMaxChars: 100,
} as const;
