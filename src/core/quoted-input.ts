/** At most this many characters of a client's value are repeated in an answer (ADR 0010). */
export const QUOTED_INPUT_MAX_CHARS = 64;

// Control characters (C0, DEL, C1), format characters (bidi overrides, zero-width) and the line
// and paragraph separators: none belongs in an identifier, and each could break or disguise the
// sentence — and the log line — that repeats it.
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/**
 * A value the client sent, fit to repeat in an error sentence: in double quotes, every control or
 * format character shown as U+FFFD, cut after {@link QUOTED_INPUT_MAX_CHARS} characters (code
 * points, never half a surrogate pair) with the full length said, e.g. `"sale-77"` or
 * `"aaaa…" (300 characters)`.
 */
export function quotedInput(value: string, max = QUOTED_INPUT_MAX_CHARS): string {
  const chars = Array.from(value);
  const safe = (text: string) => text.replace(UNSAFE, '\uFFFD').replace(/["\\]/g, (c) => `\\${c}`);
  if (chars.length <= max) return `"${safe(value)}"`;
  return `"${safe(chars.slice(0, max).join(''))}…" (${chars.length} characters)`;
}
