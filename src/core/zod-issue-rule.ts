import { z } from 'zod';

/**
 * kasa's rule sentence for a zod issue that its schema left without a message of its own: the
 * field is named by the caller (`<field>: <rule>`), the rule says what is accepted — "must be true
 * or false", "must be a whole number from 0 to 10000" — instead of zod's stock English
 * ("Invalid input: expected boolean, received string"). Passed as the per-parse error map
 * (`safeParse(data, { error: zodIssueRule })`), which zod consults only after the schema's and
 * the check's own `error`, so every sentence a schema spells out stays as it is.
 */
export const zodIssueRule: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : typeRule(issue.expected, issue.schema);
    case 'too_big':
    case 'too_small':
      return sizeRule(issue);
    case 'invalid_value':
      return issue.input === undefined ? 'is required' : oneOf(issue.values);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_format':
      return formatRule(issue);
    case 'invalid_union':
      return unionRule(issue);
    case 'invalid_key':
      return 'has a key that is not accepted';
    case 'invalid_element':
      return 'has an element that is not accepted';
    case 'custom':
      return 'is not valid';
    default:
      return undefined;
  }
};

type RawIssue<Code extends z.core.$ZodIssue['code']> = Extract<z.core.$ZodRawIssue, { code: Code }>;

function typeRule(expected: string, schema: z.core.$ZodType | undefined): string {
  switch (expected) {
    case 'number':
    case 'int':
    case 'nan':
      return numberRule(schema, expected === 'int');
    case 'string':
      return 'must be a string';
    case 'boolean':
      return 'must be true or false';
    case 'object':
    case 'record':
      return 'must be a JSON object';
    case 'array':
    case 'tuple':
    case 'set':
      return 'must be a list';
    case 'null':
      return 'must be null';
    case 'nonoptional':
      return 'is required';
    case 'never':
    case 'undefined':
    case 'void':
      return 'must be absent';
    default:
      return `must be a value of type ${expected}`;
  }
}

function sizeRule(issue: RawIssue<'too_big'> | RawIssue<'too_small'>): string {
  const big = issue.code === 'too_big';
  const bound = Number(big ? issue.maximum : issue.minimum);
  switch (issue.origin) {
    case 'number':
    case 'int':
      // The bound zod met is named even when it is the implicit safe-integer one of `.int()`.
      return numberRule(issue.schema, issue.origin === 'int', big ? { hi: bound } : { lo: bound });
    case 'string':
      return lengthRule(big, bound, issue.inclusive !== false, issue.exact === true, 'characters');
    case 'array':
    case 'set':
      return lengthRule(big, bound, issue.inclusive !== false, issue.exact === true, 'items', 'have');
    default:
      return `must be ${big ? 'at most' : 'at least'} ${bound}`;
  }
}

function lengthRule(
  big: boolean,
  n: number,
  inclusive: boolean,
  exact: boolean,
  unit: string,
  verb = 'be',
): string {
  if (exact) return `must ${verb} exactly ${n} ${unit}`;
  if (!big && n === 1 && inclusive) return 'must not be empty';
  if (big) return inclusive ? `must ${verb} at most ${n} ${unit}` : `must ${verb} fewer than ${n} ${unit}`;
  return inclusive ? `must ${verb} at least ${n} ${unit}` : `must ${verb} more than ${n} ${unit}`;
}

interface Bound {
  value: number;
  inclusive: boolean;
}

/**
 * "must be a whole number from 1 to 2147483647" (kasa's sentence elsewhere): the kind of number
 * and the range from the schema's own checks, so 1.5, −1 and 20000 get the same rule. The safe-integer
 * bounds `.int()` adds on its own are left out unless they are the bound that was broken (`met`).
 */
function numberRule(
  schema: z.core.$ZodType | undefined,
  whole: boolean,
  met: { lo?: number; hi?: number } = {},
): string {
  let lo: Bound | undefined = met.lo === undefined ? undefined : { value: met.lo, inclusive: true };
  let hi: Bound | undefined = met.hi === undefined ? undefined : { value: met.hi, inclusive: true };
  if (schema instanceof z.ZodNumber) {
    whole ||= schema.isInt === true;
    for (const check of schema._zod.def.checks ?? []) {
      const def = check._zod.def;
      if (def.check !== 'greater_than' && def.check !== 'less_than') continue;
      const { value, inclusive } = def as z.core.$ZodCheckGreaterThanDef | z.core.$ZodCheckLessThanDef;
      const bound = { value: Number(value), inclusive };
      if (Math.abs(bound.value) >= Number.MAX_SAFE_INTEGER) continue;
      if (def.check === 'greater_than') lo = tighter(lo, bound, 1);
      else hi = tighter(hi, bound, -1);
    }
  }
  if (whole) {
    // A whole number above 0 is one from 1: say the bound the POS can send.
    if (lo && !lo.inclusive && Number.isInteger(lo.value)) lo = { value: lo.value + 1, inclusive: true };
    if (hi && !hi.inclusive && Number.isInteger(hi.value)) hi = { value: hi.value - 1, inclusive: true };
  }
  const kind = whole ? 'a whole number' : 'a number';
  if (lo?.inclusive && hi?.inclusive) return `must be ${kind} from ${lo.value} to ${hi.value}`;
  const parts = [
    lo ? `${lo.inclusive ? '≥' : '>'} ${lo.value}` : undefined,
    hi ? `${hi.inclusive ? '≤' : '<'} ${hi.value}` : undefined,
  ].filter((p) => p !== undefined);
  return parts.length === 0 ? `must be ${kind}` : `must be ${kind} ${parts.join(' and ')}`;
}

/** The narrower of two bounds on one side (`side` 1 for a lower bound, −1 for an upper one). */
function tighter(a: Bound | undefined, b: Bound, side: 1 | -1): Bound {
  if (a === undefined) return b;
  if (a.value === b.value) return a.inclusive ? b : a;
  return (b.value - a.value) * side > 0 ? b : a;
}

function oneOf(values: ReadonlyArray<unknown>): string {
  const shown = values.map(literal);
  if (shown.length === 1) return `must be ${shown[0]}`;
  if (values.every((v) => typeof v === 'boolean')) return 'must be true or false';
  return `must be one of ${shown.join(', ')}`;
}

/** As kasa's enumeration sentences write them (`one of PD, UF, ND`); quoted where bare is unclear. */
function literal(value: unknown): string {
  if (typeof value === 'string') return /^[\w.:/+-]+$/.test(value) ? value : JSON.stringify(value);
  if (value === undefined) return 'absent';
  return String(value);
}

const FORMATS: Readonly<Record<string, string>> = {
  email: 'must be an e-mail address',
  url: 'must be a URL',
  uuid: 'must be a UUID',
  guid: 'must be a UUID',
  datetime: 'must be an ISO 8601 date-time',
  date: 'must be a date YYYY-MM-DD',
  time: 'must be a time HH:MM[:SS]',
  base64: 'must be Base64',
  base64url: 'must be Base64url',
  ipv4: 'must be an IPv4 address',
  ipv6: 'must be an IPv6 address',
  lowercase: 'must be in lower case',
  uppercase: 'must be in upper case',
};

function formatRule(issue: RawIssue<'invalid_format'>): string {
  const fixed = FORMATS[issue.format];
  if (fixed !== undefined) return fixed;
  const given = issue as { prefix?: string; suffix?: string; includes?: string };
  if (issue.format === 'starts_with' && given.prefix !== undefined)
    return `must start with ${JSON.stringify(given.prefix)}`;
  if (issue.format === 'ends_with' && given.suffix !== undefined)
    return `must end with ${JSON.stringify(given.suffix)}`;
  if (issue.format === 'includes' && given.includes !== undefined)
    return `must contain ${JSON.stringify(given.includes)}`;
  if (issue.format === 'regex' && issue.pattern !== undefined) return `must match ${issue.pattern}`;
  return `must be a valid ${issue.format}`;
}

/** A union of literals lists them all ("must be one of 2, 5"); other unions say no form fits. */
function unionRule(issue: RawIssue<'invalid_union'>): string {
  if (issue.input === undefined) return 'is required';
  if (issue.inclusive === false) return 'matches more than one of the accepted forms';
  if (issue.options !== undefined && issue.options.length > 0) return oneOf(issue.options);
  const values: unknown[] = [];
  for (const branch of issue.errors) {
    const only = branch.length === 1 ? branch[0] : undefined;
    if (only?.code !== 'invalid_value' || only.path.length > 0) return 'is not one of the accepted forms';
    values.push(...only.values);
  }
  return values.length === 0 ? 'is not one of the accepted forms' : oneOf(values);
}
