import { createHash } from 'node:crypto';

/** What the SFS certification application names (spec §2.3), in this order. */
export interface SwIdParts {
  manufacturer: string;
  product: string;
  chduName: string;
  version: string;
  chduVersion: string;
}

export const SW_ID_PATTERN = /^[0-9a-fA-F]{40}$/;

/**
 * SwId: SHA-1 of the UTF-8 bytes of `manufacturer|product|CHDÚ name|version|CHDÚ version`, 40 hex
 * digits in upper case as the spec example prints it (spec §2.3). UTF-8, not Latin-1: the spec
 * example only reproduces with UTF-8.
 */
export function swId(parts: SwIdParts): string {
  const text = [parts.manufacturer, parts.product, parts.chduName, parts.version, parts.chduVersion].join(
    '|',
  );
  return createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();
}
