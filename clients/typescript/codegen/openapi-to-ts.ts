/**
 * Turns kasa's OpenAPI document (`GET /api/openapi.json`) into the TypeScript the client is typed
 * with (ADR 0806): one type per component schema, the operations table (method, path, request and
 * response types, whether it takes an Idempotency-Key, whether it is an event stream), the result
 * codes as a union, and the event types. Pure: document in, source text out, so a test can compare
 * the committed file with what the running register describes.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: Json };

interface OpenApi {
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, Schema> };
}

const REF = '#/components/schemas/';
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function openApiToTs(doc: OpenApi): string {
  const schemas = doc.components?.schemas ?? {};
  const out: string[] = [
    "// Generated from kasa's GET /api/openapi.json by clients/typescript/codegen/generate.ts.",
    '// Do not edit: run `npm run generate` in clients/typescript against the current kasa instead.',
    '/* eslint-disable */',
    '',
  ];
  for (const [name, schema] of Object.entries(schemas)) {
    out.push(...doc_(schema, ''));
    out.push(`export type ${name} = ${toTs(schema, '')};`, '');
  }
  out.push(...resultCodes(schemas.ErrorResponse));
  out.push(...operations(doc));
  return `${out.join('\n').trimEnd()}\n`;
}

function toTs(s: Schema | Json | undefined, indent: string): string {
  if (s === undefined || s === null || typeof s !== 'object' || Array.isArray(s)) return 'unknown';
  if (typeof s.$ref === 'string') return s.$ref.slice(REF.length);
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ') || 'never';
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = s[key];
    if (Array.isArray(members)) return union(members.map((m) => toTs(m, indent)));
  }
  if (Array.isArray(s.allOf)) return s.allOf.map((m) => paren(toTs(m, indent))).join(' & ');
  if (Array.isArray(s.type)) return union(s.type.map((t) => toTs({ ...s, type: t }, indent)));
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${toTs(s.items as Schema | undefined, indent)}>`;
    case 'object':
      return objectType(s, indent);
    default:
      return s.properties ? objectType(s, indent) : 'unknown';
  }
}

function objectType(s: Schema, indent: string): string {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(props)) {
    lines.push(...doc_(prop, inner));
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    lines.push(`${inner}${key}${required.has(name) ? '' : '?'}: ${toTs(prop, inner)};`);
  }
  const extra = s.additionalProperties;
  if (extra !== undefined && extra !== false) {
    // An index signature must admit every named property too.
    const value = lines.length > 0 || extra === true ? 'unknown' : toTs(extra, inner);
    lines.push(`${inner}[key: string]: ${value};`);
  }
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`;
}

/**
 * The success body of a 200 answer. Some routes answer failures with HTTP 200 too (506 on
 * document/get, API text); the client throws those as KasaError, so they leave the union.
 */
function successOnly(schema: Schema | undefined): Schema | undefined {
  const members = schema?.anyOf ?? schema?.oneOf;
  if (!schema || !Array.isArray(members)) return schema;
  const kept = members.filter(
    (m) => !(m && typeof m === 'object' && !Array.isArray(m) && m.$ref === `${REF}ErrorResponse`),
  );
  if (kept.length === 1) return kept[0] as Schema;
  const rest = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== 'oneOf' && k !== 'anyOf'));
  return { ...rest, anyOf: kept };
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  return unique.length === 1 ? unique[0]! : unique.map(paren).join(' | ');
}

function paren(t: string): string {
  return /^[\w.$<>[\]"'-]+$/.test(t) || t.startsWith('{') || t.startsWith('Array<') ? t : `(${t})`;
}

function doc_(s: Schema | Json, indent: string): string[] {
  if (!s || typeof s !== 'object' || Array.isArray(s) || typeof s.description !== 'string') return [];
  return [`${indent}/** ${s.description.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */`];
}

function resultCodes(errorResponse: Schema | undefined): string[] {
  const codes = (errorResponse?.['x-kasa-result-codes'] ?? []) as Array<{
    code: number;
    name: string;
    meaning: string;
  }>;
  if (codes.length === 0) throw new Error('the OpenAPI document lists no result codes (x-kasa-result-codes)');
  return [
    '/** Every result code kasa answers with (docs/errors.md), by name. */',
    'export const RESULT_CODES = {',
    ...codes.map((c) => `  ${c.name}: { code: ${c.code}, meaning: ${JSON.stringify(c.meaning)} },`),
    '} as const;',
    'export type ResultName = keyof typeof RESULT_CODES;',
    "export type ResultCode = (typeof RESULT_CODES)[ResultName]['code'];",
    '',
  ];
}

function operations(doc: OpenApi): string[] {
  const types: string[] = [
    '/** Every operation of the API, keyed `METHOD /path`. */',
    'export interface Operations {',
  ];
  const table: string[] = ['/** The same operations at run time. */', 'export const OPERATIONS = {'];
  let eventTypes: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const key = `${method.toUpperCase()} ${path}`;
      const content = (op.requestBody as Schema | undefined)?.content as Schema | undefined;
      const body = (content?.['application/json'] as Schema | undefined)?.schema;
      const ok = ((op.responses as Schema | undefined)?.['200'] as Schema | undefined)?.content as
        | Schema
        | undefined;
      const stream = ok?.['text/event-stream'] !== undefined;
      const response = stream
        ? 'never'
        : toTs(
            successOnly((ok?.['application/json'] as Schema | undefined)?.schema as Schema | undefined),
            '    ',
          );
      const params = (Array.isArray(op.parameters) ? op.parameters : []) as Schema[];
      const idempotent = params.some((p) => p.in === 'header' && p.name === 'idempotency-key');
      const pathParams = params.filter((p) => p.in === 'path').map((p) => String(p.name));
      const queryParams = params.filter((p) => p.in === 'query').map((p) => String(p.name));
      const urlParams = params.filter((p) => p.in === 'path' || p.in === 'query');
      const paramsType =
        urlParams.length === 0
          ? 'undefined'
          : `{ ${urlParams.map((p) => `${JSON.stringify(p.name)}${p.in === 'path' || p.required === true ? '' : '?'}: string;`).join(' ')} }`;
      const extension =
        op['x-kasa-extension'] === true ||
        (Array.isArray(op.tags) && op.tags.some((t) => typeof t === 'string' && t.includes('(extension)')));
      if (Array.isArray(op['x-kasa-event-types'])) eventTypes = op['x-kasa-event-types'] as string[];
      if (typeof op.summary === 'string') types.push(`  /** ${op.summary.replace(/\*\//g, '*\\/')} */`);
      types.push(
        `  ${JSON.stringify(key)}: {`,
        `    request: ${body === undefined ? 'undefined' : toTs(body, '    ')};`,
        `    response: ${response};`,
        `    params: ${paramsType};`,
        '  };',
      );
      table.push(
        `  ${JSON.stringify(key)}: { method: ${JSON.stringify(method.toUpperCase())}, path: ${JSON.stringify(path)}, pathParams: ${JSON.stringify(pathParams)}, queryParams: ${JSON.stringify(queryParams)}, idempotent: ${idempotent}, stream: ${stream}, extension: ${extension} },`,
      );
    }
  }
  types.push('}', '');
  table.push('} as const;', '');
  const events = [
    '/** Event types of `GET /api/events`. */',
    `export type KasaEventType = ${eventTypes.map((t) => JSON.stringify(t)).join(' | ') || 'string'};`,
    '',
  ];
  return [...types, ...table, ...events];
}
