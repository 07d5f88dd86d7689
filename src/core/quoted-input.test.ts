import { describe, expect, it } from 'vitest';
import { QUOTED_INPUT_MAX_CHARS, quotedInput } from './quoted-input.js';

describe('quotedInput: a client value repeated in a sentence (ADR 0010)', () => {
  it('quotes a plain value as it is', () => {
    expect(quotedInput('sale-77')).toBe('"sale-77"');
    expect(quotedInput('Káva ☕')).toBe('"Káva ☕"');
  });

  it('shows control and format characters as U+FFFD and escapes quotes, so the sentence stays one line', () => {
    expect(quotedInput('a\nb\r\tc\u0000d\u007fe\u0085f')).toBe(
      '"a\uFFFDb\uFFFD\uFFFDc\uFFFDd\uFFFDe\uFFFDf"',
    );
    expect(quotedInput('x\u202Ey\u200Bz\u2028')).toBe('"x\uFFFDy\uFFFDz\uFFFD"');
    expect(quotedInput('say "hi" \\')).toBe('"say \\"hi\\" \\\\"');
  });

  it('cuts a long value by characters, never inside a surrogate pair, and says how long it was', () => {
    const long = 'a'.repeat(300);
    expect(quotedInput(long)).toBe(`"${'a'.repeat(QUOTED_INPUT_MAX_CHARS)}…" (300 characters)`);
    const emoji = '😀'.repeat(70);
    const shown = quotedInput(emoji);
    expect(shown).toBe(`"${'😀'.repeat(QUOTED_INPUT_MAX_CHARS)}…" (70 characters)`);
    // No lone surrogate: it survives a round trip through UTF-8.
    expect(Buffer.from(shown, 'utf8').toString('utf8')).toBe(shown);
    expect(quotedInput('a'.repeat(QUOTED_INPUT_MAX_CHARS))).toBe(`"${'a'.repeat(QUOTED_INPUT_MAX_CHARS)}"`);
  });
});
