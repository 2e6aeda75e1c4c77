/**
 * The fuzzer's request arbitrary: every operation of the OpenAPI document (the API under
 * /api/v1, generated from the contracts' Zod schemas) plus the OAuth server, health, docs
 * and unknown paths, each with schema-shaped or hostile parameters, headers, encodings,
 * methods and bodies, and now and then a raw byte stream that breaks HTTP framing.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import {
  contentEncodings,
  contentTypes,
  extraHeaders,
  hostileBytes,
  hostileQueryValue,
  hostileSegment,
  hostileString,
  methods,
  pct,
  rawRequests,
} from './hostile.ts';
import { familyOf, heavyBodies, heavyBody, trickle, type HeavyBody, type Trickle } from './heavy.ts';
import { arbitraryFor, bodyValueFor, type Components, type JsonSchema } from './schema-arbitrary.ts';

export interface FuzzRequest {
  /** Route label for the figures, e.g. `POST /property/skiptrace`. */
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Bytes written as is on a fresh socket (framing errors); method/path/headers unused. */
  raw?: string;
  /** A heavy body's kind (heavy.ts: bombs, nesting, key explosions, long strings, huge arrays). */
  heavy?: string;
  /** Deliver the body a few bytes at a time. */
  trickle?: Trickle;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Components };
}

export interface FuzzContext {
  token: string;
  clientId: string;
  clientSecret: string;
}

const API = '/api/v1';

const authorization = (ctx: FuzzContext): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${ctx.token}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        '',
        'Bearer',
        'Bearer ',
        'Bearer a.b.c',
        `Bearer ${ctx.token}x`,
        `bearer ${ctx.token}`,
        'Basic Zm9vOmJhcg==',
        `Bearer ${'A'.repeat(9000)}`,
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
      ),
    },
  );

/** Encodes a body as the declared charset says (or deliberately does not). */
function encodeText(text: string, contentType: string | undefined, honest: boolean): Buffer {
  const charset = /charset=([^;]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (!honest || !charset) return Buffer.from(text, 'utf8');
  if (charset === 'utf-16le' || charset === 'utf-16') return Buffer.from(text, 'utf16le');
  if (charset === 'iso-8859-1') return Buffer.from(text, 'latin1');
  return Buffer.from(text, 'utf8');
}

function compress(body: Buffer, encoding: string | undefined, honest: boolean): Buffer {
  if (!honest) return body;
  if (encoding === 'gzip') return gzipSync(body);
  if (encoding === 'deflate') return deflateSync(body);
  if (encoding === 'br') return brotliCompressSync(body);
  return body;
}

const csvCell = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('1 Main St', 'Austin', 'TX', '78701', 'Jane', 'Doe', '') },
  { weight: 2, arbitrary: hostileString.map((s) => s.slice(0, 200)) },
  { weight: 1, arbitrary: hostileString.map((s) => `"${s.slice(0, 200).replaceAll('"', '""')}"`) },
);

/** CSV uploads shaped like the documented columns, with hostile cells and ragged rows. */
const csvBody = (columns: string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.subarray([...columns, 'extra', 'Address', ''], { minLength: 1 }),
      fc.array(fc.array(csvCell, { minLength: 0, maxLength: 7 }), { minLength: 0, maxLength: 6 }),
      fc.constantFrom('\n', '\r\n', '\r'),
    )
    .map(([header, rows, eol]) => [header.join(','), ...rows.map((r) => r.join(','))].join(eol));

interface BodyChoice {
  contentType: string | undefined;
  text?: string;
  bytes?: Buffer;
  heavy?: HeavyBody;
}

function bodyFor(operation: Operation, components: Components): fc.Arbitrary<BodyChoice> {
  const content = operation.requestBody?.content ?? { 'application/json': { schema: {} } };
  const options = Object.entries(content).map(([type, { schema }]) => {
    const propertyColumns = Object.keys(components.Property?.properties ?? {});
    const text: fc.Arbitrary<string> =
      type === 'text/csv'
        ? csvBody(propertyColumns)
        : type === 'application/x-ndjson'
          ? fc
              .array(bodyValueFor(components.Property ?? {}, components), { maxLength: 5 })
              .map((rows) => rows.map((r) => JSON.stringify(r) ?? 'undefined').join('\n'))
          : bodyValueFor(schema, components).map((v) => JSON.stringify(v) ?? 'undefined');
    return fc.record({ contentType: fc.constant<string | undefined>(type), text });
  });
  const families = [...new Set(Object.keys(content).map(familyOf))].filter((f) => f !== undefined);
  const heavy = fc
    .constantFrom(...(families.length ? families : (['json'] as const)))
    .chain((family) => heavyBody(family))
    .map((h): BodyChoice => ({ contentType: h.contentType, heavy: h }));
  return fc.oneof(
    { weight: 8, arbitrary: fc.oneof(...options) },
    { weight: 2, arbitrary: fc.record({ contentType: contentTypes, bytes: hostileBytes }) },
    { weight: 1, arbitrary: heavy },
  );
}

function operationRequest(
  ctx: FuzzContext,
  doc: OpenApiDocument,
  template: string,
  method: string,
  operation: Operation,
): fc.Arbitrary<FuzzRequest> {
  const components = doc.components.schemas;
  const params = operation.parameters ?? [];
  const query = params.filter((p) => p.in === 'query');
  const pathArb = fc
    .tuple(...params.filter((p) => p.in === 'path').map(() => hostileSegment), fc.constant(''))
    .map((segments) => {
      let i = 0;
      return template.replace(/\{[^}]+\}/g, () => segments[i++] ?? '1');
    });
  const queryArb = fc
    .tuple(
      ...query.map((p) =>
        fc.option(
          fc.oneof(
            arbitraryFor(p.schema ?? {}, components).map((v) => pct(String(v))),
            hostileQueryValue,
          ),
          { nil: undefined },
        ),
      ),
      fc.option(fc.tuple(hostileQueryValue, hostileQueryValue), { nil: undefined }),
    )
    .map((values) => {
      const extra = values.pop() as [string, string] | undefined;
      const pairs = query.flatMap((p, i) => (values[i] === undefined ? [] : [`${p.name}=${values[i]}`]));
      if (extra) pairs.push(`${extra[0]}=${extra[1]}`);
      return pairs.length ? `?${pairs.join('&')}` : '';
    });
  return fc
    .record({
      method: fc.oneof({ weight: 6, arbitrary: fc.constant(method.toUpperCase()) }, { weight: 1, arbitrary: methods }),
      path: pathArb,
      query: queryArb,
      auth: authorization(ctx),
      body: bodyFor(operation, components),
      encoding: contentEncodings,
      honest: fc.boolean(),
      headers: extraHeaders,
      trickle,
    })
    .map((r) => {
      const hasBody = r.method !== 'GET' && r.method !== 'HEAD' && (operation.requestBody !== undefined || r.honest);
      const headers: Record<string, string> = { ...r.headers };
      if (r.auth !== undefined) headers.authorization = r.auth;
      let body: Buffer | undefined;
      const heavy = r.body.heavy;
      if (hasBody && heavy) {
        body = heavy.bytes;
        headers['content-type'] = heavy.contentType;
        if (heavy.encoding) headers['content-encoding'] = heavy.encoding;
      } else if (hasBody) {
        body = r.body.bytes ?? encodeText(r.body.text ?? '', r.body.contentType, r.honest);
        body = compress(body, r.encoding, r.honest);
        if (r.body.contentType !== undefined) headers['content-type'] = r.body.contentType;
        if (r.encoding !== undefined) headers['content-encoding'] = r.encoding;
      }
      return {
        route: `${method.toUpperCase()} ${template}`,
        method: r.method,
        path: `${API}${r.path}${r.query}`,
        headers,
        body,
        heavy: hasBody ? heavy?.kind : undefined,
        trickle: body?.length ? r.trickle : undefined,
      };
    });
}

const form = (fields: Record<string, string | undefined>) =>
  Buffer.from(
    Object.entries(fields)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${v}`)
      .join('&'),
  );

/** The OAuth server, as a client or an attacker would call it. */
function oauthRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const value = (good: string[]) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...good) },
      { weight: 1, arbitrary: hostileQueryValue },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
  const token = fc
    .record({
      grant_type: value(['client_credentials', 'authorization_code', 'refresh_token', 'password', 'implicit']),
      client_id: value([ctx.clientId, 'cli_unknown']),
      client_secret: value([pct(ctx.clientSecret), 'wrong-secret']),
      scope: value(['read', 'read%20write', 'read%20write%20admin', 'openid%20offline_access', 'email']),
      code: value(['abc', 'x'.repeat(64)]),
      refresh_token: value(['abc']),
      redirect_uri: value(['http%3A%2F%2Flocalhost%2Fcb']),
      resource: value(['urn%3Askiptrace%3Aapi', 'https%3A%2F%2Fevil.invalid']),
    })
    .map((f) => ({ route: 'POST /oauth/token', path: '/oauth/token', body: form(f) }));
  const tokenEndpoints = fc
    .record({
      path: fc.constantFrom('/oauth/revoke', '/oauth/introspect'),
      token: value(['abc', 'eyJhbGciOiJFUzI1NiJ9.e30.x']),
      token_type_hint: value(['refresh_token', 'access_token', 'bogus']),
      client_id: value([ctx.clientId]),
      client_secret: value([pct(ctx.clientSecret), 'nope']),
    })
    .map(({ path, ...f }) => ({ route: `POST ${path}`, path, body: form(f) }));
  const authorize = fc
    .record({
      response_type: value(['code', 'token', 'code id_token']),
      client_id: value([ctx.clientId, 'console']),
      redirect_uri: value(['http%3A%2F%2Flocalhost%2Fcb', 'https%3A%2F%2Fevil.invalid%2F']),
      scope: value(['read', 'read%20admin', 'openid']),
      state: value(['s']),
      code_challenge: value(['E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM']),
      code_challenge_method: value(['S256', 'plain']),
    })
    .map((f) => ({
      route: 'GET /oauth/authorize',
      path: `/oauth/authorize?${form(f).toString()}`,
      method: 'GET',
    }));
  const interaction = fc
    .tuple(hostileSegment, fc.constantFrom('', '/login', '/consent'), hostileBytes)
    .map(([uid, tail, body]) => ({
      route: `${tail ? 'POST' : 'GET'} /interaction/{uid}${tail}`,
      path: `/interaction/${uid}${tail}`,
      method: tail ? 'POST' : 'GET',
      body: tail ? body : undefined,
    }));
  const register = fc
    .record({ auth: fc.constantFrom('Bearer wrong-admin-token', ''), body: hostileBytes })
    .map(({ auth, body }) => ({
      route: 'POST /oauth/register',
      path: '/oauth/register',
      body,
      headers: auth ? { authorization: auth, 'content-type': 'application/json' } : {},
    }));
  const reads = fc
    .constantFrom('/oauth/jwks', '/.well-known/openid-configuration', '/.well-known/oauth-authorization-server')
    .map((path) => ({ route: `GET ${path}`, path, method: 'GET' }));
  // Bombs, honest compression, long values and field floods on every endpoint that reads a
  // body; JSON ones (nesting, key explosions, long strings, huge arrays) on registration.
  const heavyForms = fc
    .tuple(
      fc.constantFrom(
        ['POST /oauth/token', '/oauth/token'],
        ['POST /oauth/revoke', '/oauth/revoke'],
        ['POST /oauth/introspect', '/oauth/introspect'],
        ['POST /oauth/authorize', '/oauth/authorize'],
        ['POST /oauth/userinfo', '/oauth/userinfo'],
        ['POST /interaction/{uid}/login', '/interaction/x1/login'],
        ['POST /interaction/{uid}/consent', '/interaction/x1/consent'],
      ),
      heavyBody('form'),
    )
    .map(([[route, path], h]) => heavyRequest(route!, path!, h));
  const heavyRegister = fc
    .tuple(fc.constantFrom(`Bearer wrong-admin-token`, ''), heavyBody('json'))
    .map(([auth, h]) => heavyRequest('POST /oauth/register', '/oauth/register', h, auth));
  return fc
    .tuple(
      fc.oneof(token, tokenEndpoints, authorize, interaction, register, reads, heavyForms, heavyRegister),
      fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: methods }),
      contentTypes,
      extraHeaders,
      trickle,
    )
    .map(([r, method, contentType, headers, slow]): FuzzRequest => {
      const base = r as {
        route: string;
        path: string;
        method?: string;
        body?: Buffer;
        headers?: Record<string, string>;
      };
      const all: Record<string, string> = { ...headers, ...base.headers };
      if (base.body && !all['content-type']) all['content-type'] = contentType ?? 'application/x-www-form-urlencoded';
      const heavy = (r as { heavy?: string }).heavy;
      if (heavy) return { ...(r as FuzzRequest), headers: { ...headers, ...base.headers }, trickle: slow };
      const body = (method ?? base.method ?? 'POST') === 'GET' ? undefined : base.body;
      return {
        route: base.route,
        method: method ?? base.method ?? 'POST',
        path: base.path,
        headers: all,
        body,
        trickle: body?.length ? slow : undefined,
      };
    });
}

/** A POST of a heavy body, as it is: its content type and its coding. */
function heavyRequest(route: string, path: string, h: HeavyBody, authorization?: string): FuzzRequest {
  const headers: Record<string, string> = { 'content-type': h.contentType };
  if (h.encoding) headers['content-encoding'] = h.encoding;
  if (authorization) headers.authorization = authorization;
  return { route, method: 'POST', path, headers, body: h.bytes, heavy: h.kind };
}

/** Health, docs, metrics, the console and paths that exist nowhere. */
function otherRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const known = fc.constantFrom(
    '/healthz',
    '/readyz',
    '/metrics',
    `${API}/openapi.json`,
    `${API}/docs`,
    '/console/',
    '/console/callback',
    '/console/assets/missing.js',
    '/',
  );
  const unknown = fc.oneof(
    hostileSegment.map((s) => `${API}/${s}`),
    hostileSegment.map((s) => `/${s}`),
    fc.constantFrom(
      '//api/v1/property/skiptrace',
      `${API}/property/skiptrace/../../../oauth/token`,
      `${API}/property/skiptrace/%2e%2e/%2e%2e/etc/passwd`,
      `${API}/property/skiptrace;jsessionid=1`,
      '/api/v2/property/skiptrace',
      `${API}/property/skiptrace/batches/1/results/..`,
      '/%zz',
      '/%',
      `${API}/plants`,
      `${API}/webhooks`,
      `${API}/property/skiptrace?limit=%`,
      `${API}/property/skiptrace?cursor=%ff%fe`,
    ),
  );
  const plain = fc
    .tuple(fc.oneof(known, unknown), methods, authorization(ctx), extraHeaders, fc.option(hostileBytes))
    .map(([path, method, auth, headers, body]) => ({
      route: 'other',
      method,
      path,
      headers: auth ? { ...headers, authorization: auth } : headers,
      body: method === 'GET' || method === 'HEAD' || body === null ? undefined : body,
    }));
  // The console and the paths outside the API get heavy bodies too (nothing there reads one).
  const heavy = fc
    .tuple(
      fc.constantFrom('/console/', '/console/callback', '/', `${API}/nowhere`, '/healthz'),
      fc.constantFrom('json', 'form', 'csv', 'ndjson' as const).chain((family) => heavyBody(family)),
    )
    .map(([path, h]) => ({ ...heavyRequest('other', path, h, `Bearer ${ctx.token}`) }));
  return fc.oneof({ weight: 10, arbitrary: plain }, { weight: 1, arbitrary: heavy });
}

/** Every request the fuzzer may send, weighted towards the API's routes. */
export function fuzzRequests(ctx: FuzzContext, doc: OpenApiDocument): fc.Arbitrary<FuzzRequest> {
  const operations = Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => operationRequest(ctx, doc, template, method, operation)),
  );
  return fc.oneof(
    { weight: 14, arbitrary: fc.oneof(...operations) },
    { weight: 3, arbitrary: oauthRequests(ctx) },
    { weight: 2, arbitrary: otherRequests(ctx) },
    {
      weight: 1,
      arbitrary: rawRequests.map((raw) => ({ route: 'raw', method: '', path: '', headers: {}, raw })),
    },
  );
}

/** All routes the generator covers (for the figures). */
export function routesOf(doc: OpenApiDocument): string[] {
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => `${m.toUpperCase()} ${template}`),
  );
}

/**
 * Every heavy body once on every surface that reads one (the CI slice sends these first, so
 * each run covers them whatever the seed): JSON ones to the sync trace, webhook create and
 * change, API client creation and dynamic registration; forms to every OAuth endpoint that
 * reads a body and the sign-in forms; CSV, NDJSON and JSON uploads to the batch API; all of
 * them to the console. Plus a few trickled: a form, a JSON body and an upload.
 */
export function heavySlice(ctx: FuzzContext): FuzzRequest[] {
  const bearer = `Bearer ${ctx.token}`;
  const id = '00000000-0000-4000-8000-000000000000';
  const json = [
    ['POST /property/skiptrace', `${API}/property/skiptrace`],
    ['POST /webhooks/endpoints', `${API}/webhooks/endpoints`],
    ['PATCH /webhooks/endpoints/{id}', `${API}/webhooks/endpoints/${id}`],
    ['POST /clients', `${API}/clients`],
  ];
  const out: FuzzRequest[] = [];
  for (const h of heavyBodies('json')) {
    for (const [route, path] of json) {
      const req = heavyRequest(route!, path!, h, bearer);
      out.push(route!.startsWith('PATCH') ? { ...req, method: 'PATCH' } : req);
    }
    out.push(heavyRequest('POST /oauth/register', '/oauth/register', h, 'Bearer wrong-admin-token'));
    out.push(heavyRequest('POST /property/skiptrace/batches', `${API}/property/skiptrace/batches`, h, bearer));
  }
  for (const family of ['ndjson', 'csv'] as const)
    for (const h of heavyBodies(family))
      out.push(heavyRequest('POST /property/skiptrace/batches', `${API}/property/skiptrace/batches`, h, bearer));
  for (const h of heavyBodies('form'))
    for (const path of [
      '/oauth/token',
      '/oauth/revoke',
      '/oauth/introspect',
      '/oauth/authorize',
      '/interaction/x1/login',
    ])
      out.push(heavyRequest(`POST ${path.replace('x1', '{uid}')}`, path, h));
  for (const family of ['json', 'form', 'csv', 'ndjson'] as const)
    for (const h of heavyBodies(family).filter((b) => b.kind.startsWith('bomb')))
      out.push(heavyRequest('other', '/console/', h, bearer));
  const slow = { chunkBytes: 16, everyMs: 20 };
  const form = `grant_type=client_credentials&client_id=${ctx.clientId}&client_secret=${pct(ctx.clientSecret)}&scope=read`;
  out.push(
    {
      ...heavyRequest('POST /oauth/token', '/oauth/token', {
        kind: 'trickled form',
        contentType: 'application/x-www-form-urlencoded',
        bytes: Buffer.from(form),
      }),
      trickle: slow,
    },
    {
      ...heavyRequest(
        'POST /property/skiptrace',
        `${API}/property/skiptrace`,
        {
          kind: 'trickled JSON',
          contentType: 'application/json',
          bytes: Buffer.from('{"street_address":"1 Main St","city":"Austin","state":"TX","zip_code":"78701"}'),
        },
        bearer,
      ),
      trickle: slow,
    },
    {
      ...heavyRequest(
        'POST /property/skiptrace/batches',
        `${API}/property/skiptrace/batches`,
        {
          kind: 'trickled NDJSON',
          contentType: 'application/x-ndjson',
          bytes: Buffer.from(
            Array(20).fill('{"street_address":"1 Main St","city":"Austin","state":"TX","zip_code":"78701"}').join('\n'),
          ),
        },
        bearer,
      ),
      trickle: slow,
    },
  );
  return out;
}
