/**
 * A SOAP Body content that only ever differs in a few values — the simulator's answers: ids, a
 * date, the request's Uuid. Signing one needs the exclusive C14N form of the Body; for a template
 * that form is worked out once with markers in the holes (`signEnvelope`), and each message's form
 * is the markers replaced by its values, without parsing the Body again (capability 13, ADR 1106).
 *
 * That holds only for values that every form writes the same — raw, escaped in an attribute or in
 * text, and canonical: {@link SAFE_VALUE}. A message with any other value is signed the ordinary
 * way (parsed and canonicalized), so the template changes nothing but the cost.
 */
export class BodyTemplate {
  /** The constant text around the holes: one more part than holes. */
  readonly parts: readonly string[];

  private constructor(parts: readonly string[]) {
    this.parts = parts;
  }

  /**
   * The template `build` writes when handed a marker for each of its `holes` values. Each marker
   * must appear exactly once in what it writes.
   */
  static of(holes: number, build: (hole: (index: number) => string) => string): BodyTemplate {
    const { parts, holes: indexes } = splitAtMarkers(build(holeMarker));
    if (indexes.length !== holes || indexes.some((index, i) => index !== i)) {
      throw new Error(`a body template must use each of its ${holes} holes once, in order`);
    }
    return new BodyTemplate(parts);
  }

  /** This template with `values` in its holes, for `signEnvelope`; every value must be {@link SAFE_VALUE}. */
  with(values: readonly string[]): FilledBody {
    if (values.length !== this.parts.length - 1) throw new Error('one value per hole');
    const unsafe = values.find((value) => !SAFE_VALUE.test(value));
    if (unsafe !== undefined) throw new Error(`a body template value must match ${SAFE_VALUE}: ${unsafe}`);
    return { template: this, values };
  }

  /** The text of the Body content with `values` in the holes (values as written, see {@link SAFE_VALUE}). */
  fill(values: readonly string[]): string {
    let text = this.parts[0]!;
    for (let i = 0; i < values.length; i++) text += values[i]! + this.parts[i + 1]!;
    return text;
  }
}

export interface FilledBody {
  template: BodyTemplate;
  values: readonly string[];
}

/**
 * Characters written the same raw, in an escaped attribute or text and in exclusive C14N (no `&`,
 * `<`, `>`, quotes, whitespace or anything C14N or the escapers change): ids, Uuids, ISO dates.
 */
export const SAFE_VALUE = /^[A-Za-z0-9+\-:._]*$/;

/** The marker of hole `index`: letters and digits only, which C14N leaves as they are. */
export const holeMarker = (index: number): string => `KASAHOLE${index}X`;
const HOLE_PATTERN = /KASAHOLE(\d+)X/;

/** A text with hole markers in it: the text around them (one part more than holes) and, in order, which hole each marker is. */
export function splitAtMarkers(text: string): { parts: string[]; holes: number[] } {
  // split with a capturing group: text, index, text, index, …
  const split = text.split(HOLE_PATTERN);
  return {
    parts: split.filter((_, i) => i % 2 === 0),
    holes: split.filter((_, i) => i % 2 === 1).map(Number),
  };
}
