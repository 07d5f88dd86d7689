/**
 * Text for the Payme link's `CN` and `MSG` (SBA Payment Link Standard v2, ADR 0902): letters are
 * folded to ASCII (`Kaviareň Žilina` → `Kaviaren Zilina`), and only the recommended characters
 * `a-z A-Z 0-9 / - ? : ( ) . , ' +` and space are kept; runs of spaces become one.
 */
export function foldPaymeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z0-9/\-?:().,'+ ]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}
