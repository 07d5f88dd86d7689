import { FiscalError } from '../core/fiscal-error.js';
import { duplicateMember } from './duplicate-members.js';
import { MAX_JSON_DEPTH } from './server-limits.js';
import { fieldPath } from './validation.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Reads a request body as the API text says: UTF-8 JSON (a leading byte-order mark is tolerated,
 * as some Windows POS clients send one). Empty or blank → `undefined` (an empty POST counts as
 * `{}`).
 *
 * @throws FiscalError 700 MALFORMED_INPUT when the bytes are not UTF-8 or not JSON;
 *   701 INVALID_INPUT when arrays/objects nest deeper than {@link MAX_JSON_DEPTH} (checked before
 *   parsing, so no recursive code ever sees such a body) or a string holds a lone UTF-16
 *   surrogate (`"\ud800"`: valid JSON, but not text, and it could not be stored as UTF-8), or
 *   an object names a member twice (`{"amount":1,"amount":2}`: JSON.parse would keep the last
 *   silently; ADR 0425), naming its path.
 */
export function parseJsonBody(body: Uint8Array, maxDepth = MAX_JSON_DEPTH): unknown {
  let text: string;
  try {
    text = utf8.decode(body); // fatal: invalid UTF-8 is an error, never U+FFFD
  } catch {
    throw new FiscalError('MALFORMED_INPUT', 'The request body is not valid UTF-8.');
  }
  if (text.trim() === '') return undefined;
  const depth = nestingDepth(text);
  if (depth > maxDepth) {
    throw new FiscalError(
      'INVALID_INPUT',
      `body: JSON nested ${depth} levels deep; at most ${maxDepth} levels are accepted.`,
      { field: 'body' },
    );
  }
  let value: unknown;
  try {
    // Only a body that spells a surrogate escape can hold a lone surrogate (see SURROGATE_ESCAPE);
    // the others skip the reviver, a call per key and value (ADR 1113).
    value = SURROGATE_ESCAPE.test(text) ? JSON.parse(text, rejectLoneSurrogates) : JSON.parse(text);
  } catch (e) {
    if (e instanceof FiscalError) throw e;
    throw new FiscalError('MALFORMED_INPUT', `The request body is not valid JSON${where(text, e)}.`);
  }
  const twice = duplicateMember(text);
  if (twice !== undefined) {
    const field = fieldPath(twice, 'body');
    throw new FiscalError('INVALID_INPUT', `${field}: appears twice in the request`, { field });
  }
  return value;
}

/**
 * Deepest `[`/`{` nesting outside strings, in one pass without recursion. Stops counting once the
 * depth is known to be too deep, so the cost is linear in the body whatever it holds.
 */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/**
 * `\uD800`–`\uDFFF` in any case, also after an escaped backslash (a false alarm only costs the
 * reviver). The text was decoded from UTF-8 with `fatal`, which never yields a lone surrogate
 * (UTF-8 cannot encode one; the decoder refuses the bytes that would; a 4-byte sequence becomes a
 * whole pair), so a lone surrogate can reach a parsed key or string only through such an escape
 * (RFC 8259 §7).
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function rejectLoneSurrogates(key: string, value: unknown): unknown {
  if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value))) {
    throw new FiscalError(
      'INVALID_INPUT',
      'body: a string holds a lone UTF-16 surrogate (\\ud800–\\udfff without its pair), which is not text.',
      { field: 'body' },
    );
  }
  return value;
}

/**
 * Where JSON.parse stopped, as line and column, when V8 says (`… in JSON at position 14`; some of
 * its messages give no position, and the body's text itself is never echoed).
 */
function where(text: string, e: unknown): string {
  const at = /at position (\d+)/.exec(e instanceof Error ? e.message : '')?.[1];
  if (at === undefined) return '';
  const position = Math.min(Number(at), text.length);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return ` (it breaks at line ${line}, column ${column})`;
}
