import { verify, X509Certificate } from 'node:crypto';
import type { DocumentRecord, MerchantRecord } from '../../src/core/journal/records.js';
import { checkReceiptContent } from '../../src/core/sfs/content-rules.js';
import { checkReceiptLexical } from '../../src/core/sfs/message-lexical.js';
import { okpMatches } from '../../src/core/sfs/okp.js';
import { pkpBaseString } from '../../src/core/sfs/pkp.js';
import { vatRegimeAt } from '../../src/core/sfs/vat-recap.js';
import { parseSfsDateTime } from '../../src/core/time.js';

/**
 * Control characters other than TAB/LF/CR, U+FFFE/U+FFFF, or a lone surrogate: never in text a
 * receipt carries (SFS protocol §3.1, XML 1.0).
 */
function notText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d) continue;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0xfffe || c === 0xffff) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

function texts(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) texts(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) texts(v, out);
  return out;
}

/**
 * A stored document checked again, independently of the HTTP layer that let it in: the SFS
 * message rules (lexical -2, content -112…-131), OKP = SHA-1 of the PKP, the PKP verified with the
 * certificate of its merchant record, amounts in whole cents, and text free of control
 * characters. Returns what is wrong, or undefined.
 */
export function revalidateDocument(record: DocumentRecord, merchant: MerchantRecord): string | undefined {
  const header = {
    Uuid: '00000000-0000-4000-8000-000000000000',
    RequestDate: record.sfs.CreateDate,
    SwId: '0'.repeat(40),
    SendingCount: '1',
    Exception: record.exception ? ('true' as const) : ('false' as const),
  };
  const lexical = checkReceiptLexical({ header, data: record.sfs, pkp: record.pkp, okp: record.okp });
  if (lexical) return `SFS ${lexical.code}: ${lexical.detail}`;
  if (!okpMatches(record.okp, record.pkp)) return 'OKP is not the SHA-1 of the PKP';
  const created = parseSfsDateTime(record.sfs.CreateDate);
  if (!created) return 'CreateDate unreadable';
  const content = checkReceiptContent(record.sfs, vatRegimeAt(created));
  if (content) return `SFS ${content.code}: ${content.detail}`;
  const certificate = new X509Certificate(Buffer.from(merchant.certificate, 'base64'));
  const signed = verify(
    'sha256',
    new TextEncoder().encode(pkpBaseString(record.sfs)),
    certificate.publicKey,
    Buffer.from(record.pkp, 'base64'),
  );
  if (!signed) return 'PKP does not verify with the merchant certificate';
  if (!Number.isInteger(record.roundingCents)) return 'rounding not in whole cents';
  for (const p of record.payments)
    if (!Number.isInteger(p.amountCents) || p.amountCents < 0) return `payment ${p.name}`;
  const bad = texts(record).find(notText);
  if (bad !== undefined) return `text with control characters: ${JSON.stringify(bad.slice(0, 40))}`;
  return undefined;
}
