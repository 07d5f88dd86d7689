import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FiscalError } from '../core/fiscal-error.js';
import { MAX_LISTED_ISSUES, zodValidatorCompiler } from './validation.js';

const schema = z.strictObject({
  amount: z.number(),
  items: z.array(z.strictObject({ name: z.string() })),
});
const validate = zodValidatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/api/x' }) as (
  data: unknown,
) => { value?: unknown; error?: FiscalError };

describe('701 validation answers', () => {
  it('lists every problem when there are few: unknown members first, no count of the rest', () => {
    const { error } = validate({ amount: 'x', items: [{ name: 1 }], colour: 'red' });
    expect(error?.resultCode).toBe(701);
    expect(error?.details).toEqual({
      field: 'colour',
      issues: [
        { field: 'colour', rule: expect.stringContaining('is not a member') },
        { field: 'amount', rule: 'must be a number' },
        { field: 'items[0].name', rule: 'must be a string' },
      ],
    });
    const issues = error!.details!.issues as { rule: string }[];
    expect(error!.message).toBe(`colour: ${issues[0]!.rule}`);
  });

  it(`lists the first ${MAX_LISTED_ISSUES} problems of many and counts the rest, in the field and the sentence (ADR 0427)`, () => {
    const body: Record<string, unknown> = { amount: 'x', items: [] };
    for (let i = 0; i < 50_000; i++) body[`k${i}`] = 0;
    const { error } = validate(body);
    const details = error?.details as { field: string; issues: { field: string }[]; issuesNotListed: number };
    expect(details.issues).toHaveLength(MAX_LISTED_ISSUES);
    expect(details.issues.map((i) => i.field)).toEqual(
      Array.from({ length: MAX_LISTED_ISSUES }, (_, i) => `k${i}`),
    );
    // 50,000 unknown members and `amount`.
    expect(details.issuesNotListed).toBe(50_001 - MAX_LISTED_ISSUES);
    expect(details.field).toBe('k0');
    expect(error?.message).toMatch(
      new RegExp(`^k0: .* \\(and 50000 more problems; issues lists the first ${MAX_LISTED_ISSUES}\\)$`),
    );
    expect(JSON.stringify(details).length).toBeLessThan(5_000);
  });

  it('caps problems spread over the items of a list as well', () => {
    const items = Array.from({ length: 1_000 }, () => ({ name: 1, extra: true }));
    const details = validate({ amount: 1, items }).error?.details as {
      issues: { field: string }[];
      issuesNotListed: number;
    };
    expect(details.issues).toHaveLength(MAX_LISTED_ISSUES);
    expect(details.issues[0]!.field).toBe('items[0].extra');
    expect(details.issuesNotListed).toBe(2_000 - MAX_LISTED_ISSUES);
  });
});
