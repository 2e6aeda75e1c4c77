/**
 * The fuzzer's request arbitrary: every operation of the OpenAPI document (the API under
 * /api/v1, generated from the contracts' Zod schemas) plus the OAuth server, health, docs
 * and unknown paths, each with schema-shaped or hostile parameters, headers, encodings,
 * methods and bodies, and now and then a raw byte stream that breaks HTTP framing.
 */
import { deflateSync, gzipSync } from 'node:zlib';
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

function bodyFor(
  operation: Operation,
  components: Components,
): fc.Arbitrary<{ contentType: string | undefined; text?: string; bytes?: Buffer }> {
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
  return fc.oneof(
    { weight: 8, arbitrary: fc.oneof(...options) },
    { weight: 2, arbitrary: fc.record({ contentType: contentTypes, bytes: hostileBytes }) },
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
    })
    .map((r) => {
      const hasBody = r.method !== 'GET' && r.method !== 'HEAD' && (operation.requestBody !== undefined || r.honest);
      const headers: Record<string, string> = { ...r.headers };
      if (r.auth !== undefined) headers.authorization = r.auth;
      let body: Buffer | undefined;
      if (hasBody) {
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
  return fc
    .tuple(
      fc.oneof(token, tokenEndpoints, authorize, interaction, register, reads),
      fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: methods }),
      contentTypes,
      extraHeaders,
    )
    .map(([r, method, contentType, headers]) => {
      const base = r as {
        route: string;
        path: string;
        method?: string;
        body?: Buffer;
        headers?: Record<string, string>;
      };
      const all: Record<string, string> = { ...headers, ...base.headers };
      if (base.body && !all['content-type']) all['content-type'] = contentType ?? 'application/x-www-form-urlencoded';
      return {
        route: base.route,
        method: method ?? base.method ?? 'POST',
        path: base.path,
        headers: all,
        body: (method ?? base.method ?? 'POST') === 'GET' ? undefined : base.body,
      };
    });
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
  return fc
    .tuple(fc.oneof(known, unknown), methods, authorization(ctx), extraHeaders, fc.option(hostileBytes))
    .map(([path, method, auth, headers, body]) => ({
      route: 'other',
      method,
      path,
      headers: auth ? { ...headers, authorization: auth } : headers,
      body: method === 'GET' || method === 'HEAD' || body === null ? undefined : body,
    }));
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
