import fc from 'fast-check';
import { concretePath } from '../security/secure-register.js';
import { encodedSpellings } from '../security/spellings.js';

/** One fuzzed request, as data: built into bytes only when it is sent. */
export interface FuzzRequest {
  method: string;
  path: string;
  /** The declared route the path was derived from. */
  route: { method: string; url: string };
  headers: Record<string, string>;
  body: BodyPlan;
  /** Send over a real socket instead of `inject`. */
  socket: boolean;
}

export type BodyPlan =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: number[] }
  | { kind: 'deep'; depth: number; open: '[' | '{"a":'; inside?: Record<string, unknown> }
  | { kind: 'oversize'; extra: number };

type Json = unknown;

/** A body that does real work on a route, the starting point of the mutations. */
export function templateFor(url: string, n: number): Record<string, unknown> {
  switch (url) {
    case '/api/document/store': {
      const price = 0.05 * ((n % 40) + 1);
      const amount = Math.round(price * 2 * 100) / 100;
      return n % 7 === 0
        ? { type: 'UF', amount, invoiceId: `FA-${n}`, payments: { Karta: amount } }
        : {
            type: n % 11 === 0 ? 'ND' : 'PD',
            amount,
            documentEntries: [{ name: 'Káva', price, quantity: 2, vatRate: 'VAT_23', itemType: 'SALE' }],
            payments: { Hotovosť: amount },
            ...(n % 5 === 0 ? { externalId: `ext-${n}`, header: 'Ďakujeme', footer: 'Dovidenia' } : {}),
          };
    }
    case '/api/cash':
      return { amount: n % 2 === 0 ? 1.5 : -0.5 };
    case '/api/merchant/store':
      return { identificationData: '<x/>', authenticationData: '<y/>', keyStorePassword: 'pw' };
    case '/api/document/get':
      return n % 3 === 0 ? { documentBySequenceId: { sequenceId: 1, month: 1, year: 2026 } } : {};
    default:
      return {};
  }
}

const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    0,
    -0,
    1e308,
    -1e308,
    5e-324,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 63),
    0.005,
    1.005,
    99999999.99,
    1e21,
    1e-7,
  ),
);
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u0007',
    '\ud800',
    '\udfff',
    '\ufffe',
    'x'.repeat(300),
    'VAT_23',
    '23%',
    'PD',
    'UF',
    'VK',
    'SALE',
    'REFUND',
    '01.01.2026 10:00:00',
    '2026-01-01T10:00:00+01:00',
    '__proto__',
    'constructor',
  ),
);
const jsonValue: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;

interface Mutation {
  at: number;
  action: 'delete' | 'replace' | 'wrap' | 'stringify' | 'add';
  value: Json;
  key: string;
}
const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  action: fc.constantFrom('delete', 'replace', 'replace', 'wrap', 'stringify', 'add'),
  value: jsonValue,
  key: text,
});

/** Paths to every member of a JSON value, the root excluded. */
function members(value: Json, path: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push([...path, i]);
      members(v, [...path, i], out);
    });
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([...path, k]);
      members(v, [...path, k], out);
    }
  }
  return out;
}

/** Applies the mutations to a copy of the template. */
export function mutate(template: Json, mutations: Mutation[]): Json {
  const root = { v: structuredClone(template) } as Record<string, Json>;
  for (const m of mutations) {
    const paths = members(root.v).map((p) => ['v', ...p]);
    const path = paths.length === 0 ? ['v'] : paths[m.at % paths.length]!;
    let parent: Record<string | number, Json> = root;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
    const key = path.at(-1)!;
    const current = parent[key];
    switch (m.action) {
      case 'delete':
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else delete parent[key];
        break;
      case 'replace':
        parent[key] = m.value;
        break;
      case 'wrap':
        parent[key] = [current];
        break;
      case 'stringify':
        parent[key] = JSON.stringify(current) ?? 'undefined';
        break;
      case 'add':
        if (current && typeof current === 'object' && !Array.isArray(current)) {
          (current as Record<string, Json>)[m.key] = m.value;
        } else parent[key] = { [m.key]: m.value };
        break;
    }
  }
  return root.v;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];

/** Requests over the given routes: mostly near-valid, every kind of broken. */
export function fuzzRequest(
  routes: ReadonlyArray<{ method: string; url: string }>,
): fc.Arbitrary<FuzzRequest> {
  // Every route, with the fiscal ones (where a mistake would reach the CHDÚ) drawn most often.
  const fiscal = routes.filter(
    (r) => r.method === 'POST' && ['/api/document/store', '/api/cash'].includes(r.url),
  );
  const route = fc.oneof(
    { weight: 55, arbitrary: fc.constantFrom(...routes) },
    { weight: 45, arbitrary: fc.constantFrom(...(fiscal.length > 0 ? fiscal : routes)) },
  );
  const body: (url: string) => fc.Arbitrary<BodyPlan> = (url) =>
    fc.oneof(
      {
        weight: 5,
        arbitrary: fc.nat(1000).map((n): BodyPlan => ({ kind: 'json', value: templateFor(url, n) })),
      },
      {
        weight: 55,
        arbitrary: fc
          .tuple(fc.nat(1000), fc.array(mutation, { minLength: 1, maxLength: 3 }))
          .map(([n, ms]): BodyPlan => ({ kind: 'json', value: mutate(templateFor(url, n), ms) })),
      },
      { weight: 8, arbitrary: jsonValue.map((value): BodyPlan => ({ kind: 'json', value })) },
      {
        weight: 5,
        arbitrary: fc
          .record({
            depth: fc.integer({ min: 20, max: 100_000 }),
            open: fc.constantFrom('[' as const, '{"a":' as const),
            // Deep inside an otherwise valid body, as an unknown member the schema ignores.
            inside: fc.option(
              fc.nat(1000).map((n) => templateFor(url, n)),
              { nil: undefined },
            ),
          })
          .map(({ inside, ...d }): BodyPlan => ({ kind: 'deep', ...d, ...(inside ? { inside } : {}) })),
      },
      {
        weight: 8,
        arbitrary: fc
          .oneof(
            fc.string({ maxLength: 40 }),
            fc.nat(1000).chain((n) => {
              const t = JSON.stringify(templateFor(url, n));
              return fc.nat(t.length).map((cut) => t.slice(0, cut));
            }),
            fc.constantFrom(
              '{',
              '}',
              '[1,]',
              '{"a":1}}',
              'NaN',
              '{"amount":Infinity}',
              "{'a':1}",
              '\ufeff{}',
              '{"n":"\\ud800"}',
              '{"\\udc00":1}',
            ),
          )
          .map((t): BodyPlan => ({ kind: 'text', text: t })),
      },
      {
        weight: 5,
        arbitrary: fc
          .tuple(
            fc.nat(1000),
            fc.nat(),
            fc.constantFrom(
              [0xff],
              [0xc3, 0x28],
              [0xed, 0xa0, 0x80],
              [0xf8, 0x88, 0x80, 0x80, 0x80],
              [0xe2, 0x82],
            ),
          )
          .map(([n, at, bad]): BodyPlan => {
            const bytes = [...Buffer.from(JSON.stringify(templateFor(url, n)))];
            const i = at % bytes.length;
            return { kind: 'bytes', bytes: [...bytes.slice(0, i), ...bad, ...bytes.slice(i)] };
          }),
      },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 1, max: 4096 }).map((extra): BodyPlan => ({ kind: 'oversize', extra })),
      },
      { weight: 8, arbitrary: fc.constant<BodyPlan>({ kind: 'none' }) },
    );
  const contentType = fc.oneof(
    { weight: 80, arbitrary: fc.constant('application/json') },
    {
      weight: 20,
      arbitrary: fc.constantFrom(
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'application/json; charset=latin1',
        'text/plain',
        'text/plain;charset=UTF-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonx',
        '',
        'none',
      ),
    },
  );
  const extraHeaders = fc.record(
    {
      origin: fc.constantFrom('https://evil.example', 'null', 'http://localhost:1'),
      'sec-fetch-site': fc.constantFrom('cross-site', 'same-site', 'same-origin', 'none'),
      host: fc.constantFrom('evil.example', 'localhost', '127.0.0.1:13083'),
      authorization: fc.constantFrom('Bearer x', 'Basic eA=='),
    },
    { requiredKeys: [] },
  );
  return fc
    .record({
      route,
      methodChoice: fc.oneof(
        { weight: 85, arbitrary: fc.constant(undefined) },
        { weight: 15, arbitrary: fc.constantFrom(...METHODS) },
      ),
      pathChoice: fc.oneof(
        { weight: 80, arbitrary: fc.constant({ kind: 'plain' as const }) },
        { weight: 8, arbitrary: fc.nat().map((i) => ({ kind: 'encoded' as const, i })) },
        { weight: 5, arbitrary: fc.string({ maxLength: 20 }).map((s) => ({ kind: 'random' as const, s })) },
        {
          weight: 4,
          arbitrary: fc
            .constantFrom('/', '?x=%zz', '?a=1&b=2', '//', '/.')
            .map((s) => ({ kind: 'suffix' as const, s })),
        },
        { weight: 3, arbitrary: fc.constant({ kind: 'upper' as const }) },
      ),
      contentType,
      extra: fc.oneof({ weight: 85, arbitrary: fc.constant({}) }, { weight: 15, arbitrary: extraHeaders }),
      idempotencyKey: fc.oneof(
        { weight: 75, arbitrary: fc.constant(undefined) },
        { weight: 10, arbitrary: fc.constantFrom('k-1', 'k-2', 'k-3') },
        { weight: 10, arbitrary: fc.uuid() },
        { weight: 5, arbitrary: fc.string({ maxLength: 110 }) },
      ),
      socket: fc.oneof(
        { weight: 98, arbitrary: fc.constant(false) },
        { weight: 2, arbitrary: fc.constant(true) },
      ),
    })
    .chain((r) =>
      body(r.route.url).map((b): FuzzRequest => {
        const plain = concretePath(r.route.url);
        const p = r.pathChoice;
        const path =
          p.kind === 'plain'
            ? plain
            : p.kind === 'encoded'
              ? (() => {
                  const all = encodedSpellings(plain);
                  // `/` (the admin page) has nothing after its slash to encode.
                  return all.length === 0 ? plain : all[p.i % all.length]!;
                })()
              : p.kind === 'random'
                ? `/api/${encodeURIComponent(p.s)}`
                : p.kind === 'suffix'
                  ? `${plain}${p.s}`
                  : plain.toUpperCase();
        const headers: Record<string, string> = { ...(r.extra as Record<string, string>) };
        if (r.contentType !== 'none') headers['content-type'] = r.contentType;
        if (r.idempotencyKey !== undefined) headers['idempotency-key'] = r.idempotencyKey;
        return {
          method: r.methodChoice ?? r.route.method,
          path,
          route: r.route,
          headers,
          body: b,
          socket: r.socket,
        };
      }),
    );
}

/** The bytes of a planned body. */
export function bodyBytes(plan: BodyPlan, bodyLimit: number): Buffer | undefined {
  switch (plan.kind) {
    case 'none':
      return undefined;
    case 'json':
      return Buffer.from(JSON.stringify(plan.value) ?? 'null');
    case 'text':
      return Buffer.from(plan.text);
    case 'bytes':
      return Buffer.from(plan.bytes);
    case 'deep': {
      const deep = `${plan.open.repeat(plan.depth)}1${(plan.open === '[' ? ']' : '}').repeat(plan.depth)}`;
      if (!plan.inside) return Buffer.from(deep);
      const rest = JSON.stringify(plan.inside).slice(1);
      return Buffer.from(`{"note":${deep}${rest === '}' ? '' : ','}${rest}`);
    }
    case 'oversize':
      return Buffer.from(`{"a":"${'x'.repeat(bodyLimit + plan.extra)}"}`);
  }
}
