import { createRequire } from 'node:module';

type Reg = (...parts: Array<RegExp | string>) => RegExp;

/** How many trie nodes are kept: xmldom asks for a handful of expressions, all from its own grammar. */
const LIMIT = 256;

/**
 * @xmldom/xmldom 0.9 builds a new RegExp from its grammar for every end tag it reads (`grammar.reg`
 * in its SAX parser, and again for each processing instruction or comment): about a quarter of the
 * CPU of parsing an SFS message, on both sides of every exchange (capability 13 profile). The
 * expressions depend only on the grammar's constant pieces, and a RegExp without the `g`/`y` flags
 * keeps no state between `exec` calls, so the same one can serve every call: `reg` is wrapped to
 * return the expression it built before for the same parts. Parsing is otherwise untouched (same
 * expressions, same errors); the parser's tests and the SOAP tests hold it. Installed once; a
 * future xmldom without `grammar.reg` is left as it is.
 */
export function installXmldomGrammarCache(): boolean {
  const require = createRequire(import.meta.url);
  let grammar: { reg?: Reg & { kasaCached?: true }; QName_exact?: unknown };
  try {
    grammar = require('@xmldom/xmldom/lib/grammar.js') as typeof grammar;
  } catch {
    return false;
  }
  rememberQNameTests(grammar.QName_exact);
  const original = grammar.reg;
  if (typeof original !== 'function') return false;
  if (original.kasaCached) return true;
  // A trie on the parts themselves (xmldom passes the same RegExp objects and strings every time):
  // finding a built expression costs a few Map look-ups, no string building.
  interface Node {
    next: Map<RegExp | string, Node>;
    expression?: RegExp;
  }
  const root: Node = { next: new Map() };
  let count = 0;
  const cached = function (this: unknown, ...parts: Array<RegExp | string>): RegExp {
    let node = root;
    for (const part of parts) {
      let child = node.next.get(part);
      if (!child) {
        if (count >= LIMIT) return original.apply(this, parts);
        child = { next: new Map() };
        node.next.set(part, child);
        count++;
      }
      node = child;
    }
    if (node.expression) return node.expression;
    const expression = original.apply(this, parts);
    // Only stateless expressions are shared (none of xmldom's has `g` or `y`; a future one is not cached).
    if (!expression.global && !expression.sticky) node.expression = expression;
    return expression;
  } as Reg & { kasaCached?: true };
  cached.kasaCached = true;
  grammar.reg = cached;
  return true;
}

/** How many names the qualified-name test remembers, and how long a name it remembers. */
const NAMES_LIMIT = 512;
const NAME_LENGTH_LIMIT = 64;

/**
 * xmldom's DOM checks every element and attribute name it creates against the grammar's QName
 * expression (`QName_exact.test`, a Unicode-class expression, once per name per parse: about a
 * tenth of parsing an SFS message, which carries the same few dozen names every time). Its answer
 * depends only on the name (the expression has no `g`/`y` flag, so no state between calls), so
 * the expression's own `test` is shadowed by one that remembers the answers for up to
 * {@link NAMES_LIMIT} short names and asks the expression itself for any other. Nothing to
 * invalidate: the expression never changes. Installed once.
 */
function rememberQNameTests(expression: unknown): void {
  if (!(expression instanceof RegExp) || expression.global || expression.sticky) return;
  if (Object.hasOwn(expression, 'test')) return;
  const test = RegExp.prototype.test;
  const answers = new Map<string, boolean>();
  Object.defineProperty(expression, 'test', {
    value(name: unknown): boolean {
      if (typeof name !== 'string' || name.length > NAME_LENGTH_LIMIT)
        return test.call(expression, name as string);
      let answer = answers.get(name);
      if (answer === undefined) {
        answer = test.call(expression, name);
        if (answers.size < NAMES_LIMIT) answers.set(name, answer);
      }
      return answer;
    },
  });
}
