import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodIssueRule } from './zod-issue-rule.js';

/** The first issue's message when `value` is parsed with kasa's error map. */
function rule(schema: z.ZodType, value: unknown): string | undefined {
  return schema.safeParse(value, { error: zodIssueRule }).error?.issues[0]?.message;
}

/** zod's stock English, which no rule may fall back to. */
const STOCK =
  /Invalid input|Invalid option|Too big|Too small|expected .* received|Invalid (string|element|key)/;

describe('zodIssueRule: kasa sentences for the issues a schema leaves unspelt', () => {
  it('invalid_type: says what is accepted, or "is required" when absent', () => {
    const cases: Array<[z.ZodType, unknown, string]> = [
      [z.boolean(), 'yes', 'must be true or false'],
      [z.string(), 5, 'must be a string'],
      [z.object({}), [1], 'must be a JSON object'],
      [z.record(z.string(), z.number()), 'x', 'must be a JSON object'],
      [z.array(z.string()), {}, 'must be a list'],
      [z.number(), '1', 'must be a number'],
      [z.null(), 1, 'must be null'],
      [z.object({ a: z.string() }), {}, 'is required'],
    ];
    for (const [schema, value, want] of cases) expect(rule(schema, value), JSON.stringify(value)).toBe(want);
  });

  it('numbers: the kind and the whole range whichever bound or rule is broken', () => {
    const delay = z.number().int().min(0).max(10_000);
    for (const value of [20_000, -1, 1.5, 'x']) {
      expect(rule(delay, value), String(value)).toBe('must be a whole number from 0 to 10000');
    }
    expect(rule(z.number().int(), 1.5)).toBe('must be a whole number');
    expect(rule(z.number().int().positive(), 0)).toBe('must be a whole number ≥ 1');
    expect(rule(z.number().int().lt(100), 100)).toBe('must be a whole number ≤ 99');
    expect(rule(z.number().positive(), 0)).toBe('must be a number > 0');
    expect(rule(z.number().min(0.5).max(2), 3)).toBe('must be a number from 0.5 to 2');
    expect(rule(z.number().gt(0).max(2), 3)).toBe('must be a number > 0 and ≤ 2');
    expect(rule(z.number().min(1).min(3), 2)).toBe('must be a number ≥ 3');
    // Beyond what `.int()` can hold exactly: the safe-integer bound it broke is named.
    expect(rule(z.number().int(), 2 ** 60)).toBe('must be a whole number ≤ 9007199254740991');
    expect(rule(z.number().multipleOf(5), 7)).toBe('must be a multiple of 5');
  });

  it('too_big / too_small on texts and lists', () => {
    expect(rule(z.string().max(3), 'abcd')).toBe('must be at most 3 characters');
    expect(rule(z.string().min(1), '')).toBe('must not be empty');
    expect(rule(z.string().min(2), 'a')).toBe('must be at least 2 characters');
    expect(rule(z.string().length(4), 'a')).toBe('must be exactly 4 characters');
    expect(rule(z.array(z.number()).max(2), [1, 2, 3])).toBe('must have at most 2 items');
    expect(rule(z.array(z.number()).min(1), [])).toBe('must not be empty');
  });

  it('invalid_value and unions of literals list what is accepted', () => {
    expect(rule(z.enum(['cp852', 'raster']), 'x')).toBe('must be one of cp852, raster');
    expect(rule(z.enum(['a b', '']), 'x')).toBe('must be one of "a b", ""');
    expect(rule(z.literal(false), true)).toBe('must be false');
    expect(rule(z.union([z.literal(2), z.literal(5)]), 3)).toBe('must be one of 2, 5');
    expect(rule(z.union([z.string(), z.number()]), true)).toBe('is not one of the accepted forms');
    expect(rule(z.object({ a: z.enum(['x', 'y']) }), {})).toBe('is required');
  });

  it('formats and refinements', () => {
    expect(rule(z.string().regex(/^[0-9]+$/), 'x')).toBe('must match /^[0-9]+$/');
    expect(rule(z.uuid(), 'x')).toBe('must be a UUID');
    expect(rule(z.string().startsWith('QR-'), 'x')).toBe('must start with "QR-"');
    expect(
      rule(
        z.string().refine(() => false),
        'x',
      ),
    ).toBe('is not valid');
  });

  it("keeps every sentence a schema spells itself (the schema's, the check's, the refinement's)", () => {
    expect(rule(z.number({ error: 'must be a number (the unit price)' }), 'x')).toBe(
      'must be a number (the unit price)',
    );
    expect(rule(z.string().max(3, 'at most 3 characters as written'), 'abcd')).toBe(
      'at most 3 characters as written',
    );
    expect(
      rule(
        z.number().refine((n) => n === 0, { message: 'must be 0 here' }),
        1,
      ),
    ).toBe('must be 0 here');
    expect(rule(z.union([z.literal(2), z.literal(5)], { error: 'must be 2 or 5' }), 3)).toBe(
      'must be 2 or 5',
    );
  });

  it('never falls back to zod stock English for the kinds above', () => {
    const schemas: Array<[z.ZodType, unknown]> = [
      [z.boolean(), 1],
      [z.bigint(), 1],
      [z.date(), 'x'],
      [z.tuple([z.string()]), 'x'],
      [z.map(z.string(), z.string()), 1],
      [z.set(z.string()).max(1), new Set(['a', 'b'])],
      [z.email(), 'x'],
      [z.iso.datetime(), 'x'],
    ];
    for (const [schema, value] of schemas) {
      const said = rule(schema, value);
      expect(said, String(value)).toMatch(/^(must|is|has) /);
      expect(said).not.toMatch(STOCK);
    }
  });
});
