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
 * Request validation with zod: a body that is JSON but breaks the schema is a 701 INVALID_INPUT
 * naming the field and the rule (the first problem in `error`, all of them in `issues`). A rule a
 * schema does not spell out itself is kasa's sentence for the kind of issue, never zod's stock
 * English (`zodIssueRule`).
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data, { error: zodIssueRule });
    if (result.success) return { value: result.data };
    const root = httpPart === 'body' ? 'body' : (httpPart ?? 'request');
    // ADR 0424: an unknown member is named first — it is the likeliest cause of the rest.
    const unknown = result.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({
            field: fieldPath([...issue.path, key], root),
            rule: UNKNOWN_MEMBER_RULE,
          }))
        : [],
    );
    const issues = [
      ...unknown,
      ...result.error.issues
        .filter((issue) => issue.code !== 'unrecognized_keys')
        .map((issue) => ({ field: fieldPath(issue.path, root), rule: issue.message })),
    ];
    const first = issues[0]!;
    return {
      error: new FiscalError('INVALID_INPUT', `${first.field}: ${first.rule}`, {
        field: first.field,
        issues,
      }),
    };
  };
