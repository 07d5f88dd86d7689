import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { FiscalError } from '../core/fiscal-error.js';
import { zodIssueRule } from '../core/zod-issue-rule.js';
import { UNKNOWN_MEMBER_RULE } from './schemas/strict-request.js';

/** `documentEntries[2].vatRate` from zod's `['documentEntries', 2, 'vatRate']`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>, root: string): string {
  if (path.length === 0) return root;
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/**
 * How many problems `issues` lists at most (ADR 0427): a 1 MB body of 131,495 unknown members
 * answered 15 MB naming each. `issuesNotListed` counts the rest, and the sentence says so.
 */
export const MAX_LISTED_ISSUES = 20;

interface Issue {
  field: string;
  rule: string;
}

/**
 * Request validation with zod: a body that is JSON but breaks the schema is a 701 INVALID_INPUT
 * naming the field and the rule (the first problem in `error`, the first
 * {@link MAX_LISTED_ISSUES} in `issues`). A rule a schema does not spell out itself is kasa's
 * sentence for the kind of issue, never zod's stock English (`zodIssueRule`).
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data, { error: zodIssueRule });
    if (result.success) return { value: result.data };
    const root = httpPart === 'body' ? 'body' : (httpPart ?? 'request');
    // Counted in one pass; only the listed ones are spelled out.
    const listed: Issue[] = [];
    let count = 0;
    // ADR 0424: an unknown member is named first — it is the likeliest cause of the rest.
    for (const issue of result.error.issues) {
      if (issue.code !== 'unrecognized_keys') continue;
      count += issue.keys.length;
      for (const key of issue.keys.slice(0, MAX_LISTED_ISSUES - listed.length)) {
        listed.push({ field: fieldPath([...issue.path, key], root), rule: UNKNOWN_MEMBER_RULE });
      }
    }
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') continue;
      count += 1;
      if (listed.length < MAX_LISTED_ISSUES)
        listed.push({ field: fieldPath(issue.path, root), rule: issue.message });
    }
    const first = listed[0]!;
    const notListed = count - listed.length;
    const more =
      notListed > 0 ? ` (and ${count - 1} more problems; issues lists the first ${listed.length})` : '';
    return {
      error: new FiscalError('INVALID_INPUT', `${first.field}: ${first.rule}${more}`, {
        field: first.field,
        issues: listed,
        ...(notListed > 0 ? { issuesNotListed: notListed } : {}),
      }),
    };
  };
