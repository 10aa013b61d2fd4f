import fc from 'fast-check';

/** Strings that have broken servers before: control and bidi characters, odd dates, lone surrogates, injections. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'Ana\u0000 Souza',
    '\u001b[31mred',
    'Ana \u202eazuoS',
    '\u2066x\u2069 y',
    '\ud800',
    'a\udfffb',
    '\r\n',
    '\u2028',
    '\u0085',
    '0000-00-00',
    '2026-02-30',
    '9999-99-99',
    '-0001-01-01',
    '1e309',
    '-1',
    'NaN',
    'null',
    '{}',
    '%00',
    '%',
    "'; DROP TABLE entries; --",
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '😀'.repeat(40),
    'ę̸̢̛̯̗̭͖̞̟͚̜̓̏̃̅̒̽̿͂́͐̚',
    '0'.repeat(400),
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 300 }),
  fc.nat({ max: 70_000 }).map((n) => 'x'.repeat(n)),
);

/** A value of any JSON type, nasty strings and extreme numbers included. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.constantFrom(0, -0, -1, 1.5, 1e308, -1e308, 2 ** 31, 2 ** 53, 2 ** 63, Number.MIN_VALUE, true, false, null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 1, max: 400 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown),
);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Paths to every node of a JSON value (the root is the empty path). */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (Array.isArray(value)) return here.concat(value.flatMap((v, i) => pathsOf(v, [...prefix, i])));
  if (value && typeof value === 'object') return here.concat(Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...prefix, k])));
  return here;
}

type Mutation =
  | { kind: 'set'; value: unknown }
  | { kind: 'delete' }
  | { kind: 'unknownKey'; key: string; value: unknown }
  | { kind: 'inject'; char: string; at: number };

/** Characters slipped into an otherwise valid text: control, bidi, separators, lone surrogates, BOM. */
const dangerousChars = fc.constantFrom(
  '\u0000',
  '\u0001',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udc00',
  '\n',
  '\t',
  '\r',
  '\u200f',
  '\ufeff',
  '\uffff',
  '%00',
);

function applyMutation(root: Json, path: (string | number)[], mutation: Mutation): unknown {
  const copy = structuredClone(root) as Json;
  if (path.length === 0) {
    if (mutation.kind === 'set') return mutation.value;
    if (mutation.kind === 'inject') return mutation.char;
    if (mutation.kind === 'unknownKey' && copy && typeof copy === 'object' && !Array.isArray(copy))
      return { ...copy, [mutation.key]: mutation.value };
    return mutation.kind === 'delete' ? undefined : copy;
  }
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (mutation.kind === 'inject') {
    const text = parent[last];
    parent[last] =
      typeof text === 'string'
        ? text.slice(0, mutation.at % (text.length + 1)) + mutation.char + text.slice(mutation.at % (text.length + 1))
        : mutation.char;
  } else if (mutation.kind === 'set') parent[last] = mutation.value;
  else if (mutation.kind === 'delete') delete parent[last];
  else {
    const target = parent[last];
    if (target && typeof target === 'object' && !Array.isArray(target)) (target as Record<string, unknown>)[mutation.key] = mutation.value;
    else parent[mutation.key] = mutation.value;
  }
  return copy;
}

const unknownKey = fc.oneof(
  fc.constantFrom('hidePositon', 'nmae', 'isAdmin', '__proto__', 'constructor', 'prototype', '', ' ', '\u0000', 'a.b', '$where'),
  fc.string({ maxLength: 20 }),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: nastyValue.map((value) => ({ kind: 'set' as const, value })) },
  { weight: 4, arbitrary: fc.record({ char: dangerousChars, at: fc.nat({ max: 200 }) }).map((m) => ({ kind: 'inject' as const, ...m })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'delete' as const }) },
  { weight: 2, arbitrary: fc.record({ key: unknownKey, value: nastyValue }).map((m) => ({ kind: 'unknownKey' as const, ...m })) },
);

/** Paths to the strings of a JSON value: where people's text goes. */
export function textPathsOf(value: unknown): (string | number)[][] {
  return pathsOf(value).filter(
    (path) => typeof path.reduce<unknown>((node, step) => (node as Record<string | number, unknown>)[step], value) === 'string',
  );
}

/** One dangerous character slipped into one text of a valid body: the rest stays valid. */
export const injected = (seed: Json, path: (string | number)[], char: string, at: number): unknown =>
  applyMutation(seed, path, { kind: 'inject', char, at });

export const replaced = (seed: Json, path: (string | number)[], value: unknown): unknown =>
  applyMutation(seed, path, { kind: 'set', value });

/** A valid body with one to three of its nodes replaced, removed or given an unknown key. */
export function mutatedBody(seed: Json): fc.Arbitrary<unknown> {
  const paths = pathsOf(seed);
  const texts = textPathsOf(seed);
  const oneText = texts.length
    ? fc
        .tuple(fc.constantFrom(...texts), fc.oneof(fc.constant('\u0000'), dangerousChars), fc.nat({ max: 200 }))
        .map(([path, char, at]) => injected(seed, path, char, at))
    : undefined;
  const steps = fc.array(fc.tuple(fc.constantFrom(...paths), mutation), { minLength: 1, maxLength: 3 }).map((steps) => {
    let body: unknown = seed;
    for (const [path, m] of steps) {
      try {
        body = applyMutation(body as Json, path, m);
      } catch {
        // An earlier step removed or replaced this path: skip it.
      }
    }
    return body;
  });
  return oneText ? fc.oneof(steps, oneText) : steps;
}

export interface FuzzBody {
  payload?: string | Buffer;
  contentType?: string;
  /** What the body was meant to be, for the failure report. */
  note: string;
}

const json = (value: unknown, note: string): FuzzBody => ({
  payload: value === undefined ? undefined : JSON.stringify(value),
  contentType: 'application/json',
  note,
});

const malformedJson = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    '[1,2',
    'undefined',
    'NaN',
    '{"a":1}{"b":2}',
    '\u0000',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '"\\ud800"',
    '1'.repeat(5000),
  ),
  fc.string({ maxLength: 200 }),
);

const boundary = '----vezfuzz';
const multipart = (content: Buffer, filename: string, type: string): FuzzBody => ({
  payload: Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]),
  contentType: `multipart/form-data; boundary=${boundary}`,
  note: `multipart ${type} ${content.length} bytes`,
});

const otherBodies: fc.Arbitrary<FuzzBody> = fc.oneof(
  fc.constant<FuzzBody>({ note: 'no body' }),
  fc.constant<FuzzBody>({ payload: '', contentType: 'application/json', note: 'empty json' }),
  fc.string({ maxLength: 100 }).map((s): FuzzBody => ({ payload: s, contentType: 'text/plain', note: 'text/plain' })),
  fc
    .string({ maxLength: 100 })
    .map((s): FuzzBody => ({ payload: `a=${encodeURIComponent(s)}`, contentType: 'application/x-www-form-urlencoded', note: 'form' })),
  fc
    .constantFrom('application/json; charset=utf-16', 'application/xml', 'image/png', 'multipart/form-data', 'application/json\u0000')
    .map((type): FuzzBody => ({ payload: '{}', contentType: type, note: `type ${type}` })),
  fc.uint8Array({ maxLength: 2000 }).map((bytes) => multipart(Buffer.from(bytes), 'x.png', 'image/png')),
  fc
    .constantFrom(
      '<svg xmlns="http://www.w3.org/2000/svg" width="99999" height="99999"/>',
      '<svg xmlns="http://www.w3.org/2000/svg"><!DOCTYPE x [<!ENTITY a "aaaa">]></svg>',
      '<svg',
    )
    .map((svg) => multipart(Buffer.from(svg), 'x.svg', 'image/svg+xml')),
);

/** A body for a write: mostly a mutated valid body when the route has one, else any JSON or none. */
export function fuzzBody(seed: Json | undefined): fc.Arbitrary<FuzzBody> {
  const arbitraries: fc.WeightedArbitrary<FuzzBody>[] = [
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => json(v, 'any json')) },
    { weight: 2, arbitrary: malformedJson.map((s): FuzzBody => ({ payload: s, contentType: 'application/json', note: 'malformed json' })) },
    { weight: 2, arbitrary: otherBodies },
  ];
  if (seed !== undefined) {
    arbitraries.push(
      { weight: 8, arbitrary: mutatedBody(seed).map((v) => json(v, 'mutated')) },
      { weight: 1, arbitrary: fc.constant(json(seed, 'valid')) },
    );
  }
  return fc.oneof(...arbitraries);
}

/** A path or query value as it goes on the wire: percent-encoded, or raw and malformed. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value.replace(/[^\w-]/g, '%zz');
  }
}

export const paramValue = (real: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    ...(real.length ? [{ weight: 10, arbitrary: fc.constantFrom(...real) }] : []),
    { weight: 3, arbitrary: nastyString.filter((s) => s.length < 5000).map(encode) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%c0%80', '%ed%a0%80', '..', '%2e%2e', 'a%2Fb', '%00') },
    { weight: 2, arbitrary: fc.stringMatching(/^[0-9a-f]{24}$/) },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{22}$/) },
  );

const queryPairs: fc.Arbitrary<string> = fc
  .dictionary(
    fc.oneof(
      fc.constantFrom('lng', 'date', 'tz', 'quality', 'format', 'w', 'shared', 'venueId', '__proto__'),
      fc.string({ maxLength: 10 }),
    ),
    fc.oneof(
      fc.constantFrom('en', 'pt', '0000-00-00', '2026-02-30', '1e309', '-99999', '70', 'webp', 'true', '2000', '99999999999'),
      nastyString.filter((s) => s.length < 3000),
    ),
    { maxKeys: 3 },
  )
  .map((q) =>
    Object.entries(q)
      .map(([k, v]) => `${encode(k)}=${encode(v)}`)
      .join('&'),
  );

/** A query: pairs, a key given twice (an array to the route), bracket keys, or bare garbage. */
export const queryString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: queryPairs },
  { weight: 1, arbitrary: fc.constantFrom('lng', 'date', 'tz', 'quality', 'w').map((k) => `${k}=1&${k}=2`) },
  { weight: 1, arbitrary: fc.constantFrom('lng[]=en', 'date[a]=1', 'tz=1&tz[]=2', '&&&', '=', '%', 'a=%zz', '?') },
);

/** Extra request headers: printable values only (Node refuses others before the server sees them). */
const headerValue = fc.oneof(
  fc.constantFrom('', '*', 'W/"x"', '1.2.3.4, 5.6.7.8', 'pt-BR,pt;q=0.9', 'en', 'x'.repeat(4000), 'vez_staff=garbage; vez_user=%00'),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 100 }),
);
export const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom(
    'accept-language',
    'if-none-match',
    'x-forwarded-for',
    'accept',
    'accept-encoding',
    'range',
    'last-event-id',
    'x-real-ip',
  ),
  headerValue,
  { maxKeys: 2 },
);
