/**
 * The one-process system's admin API, for the CLI when the embedded store is locked by this
 * process (PGlite allows one process: the CLI cannot open it beside us). It answers only on
 * loopback and only with the token this process wrote to `<data dir>/admin.json` (0600) at
 * start, and performs the change with the system's own store handle, so the running
 * services see it at once. Paths under /admin/v1:
 *
 * - `POST /accounts` `{name}`, `POST /users` `{email, password, accountId?}`, `POST /clients`
 *   (the CLI's `clients create` input): JSON in, the created record out (201).
 * - `POST /import/contacts|properties|suppression?options=<JSON>`: the file as the body;
 *   answers NDJSON: `{"rejects": text}` pieces of the rejects CSV, `{"progress": counts}`,
 *   then `{"counts": counts}` or `{"error": {"error": code, "message": …}}`.
 * - `PUT /quotas/{account}` and `GET /quotas/{account}`: the account's monthly quotas.
 *
 * Errors are the API's Error body (400 for bad input, 401 for a missing or wrong token).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { AccountError, createAccounts } from '@skiptrace/accounts';
import { createAuditLog } from '@skiptrace/audit';
import {
  ImportFormatError,
  importContacts,
  importProperties,
  importSuppression,
  type ImportCounts,
} from '@skiptrace/contacts';
import { ApiError, DependencyUnavailableError, errorHandler, jsonBody } from '@skiptrace/runtime';
import { adminEndpointPath, type Database } from '@skiptrace/storage';
import { createUsage, QuotaUpdate } from '@skiptrace/usage';
import express, { type Request, type RequestHandler, type Router } from 'express';
import { Writable } from 'node:stream';

/** Where the admin API is and the token it takes, as written to admin.json. */
export interface AdminEndpoint {
  pid: number;
  url: string;
  token: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const digest = (text: string) => createHash('sha256').update(text).digest();

function guard(token: string): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) return next(new ApiError('not_found', 'not found'));
    const match = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '');
    if (match && timingSafeEqual(digest(match[1]!), expected)) return next();
    next(new ApiError('unauthorized', 'the admin token of this system is required (see admin.json in its data dir)'));
  };
}

const text = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value === '') throw new ApiError('validation_failed', `${name} is required`);
  return value;
};
const optionalText = (value: unknown, name: string): string | undefined =>
  value === undefined || value === null ? undefined : text(value, name);
const optionalList = (value: unknown, name: string): string[] | undefined => {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new ApiError('validation_failed', `${name} must be an array of strings`);
  return value as string[];
};

function importOptions(req: Request): Record<string, unknown> {
  const raw = req.query.options;
  if (raw === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(String(raw));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new ApiError('invalid_parameter', 'options must be a JSON object');
}

/** Builds the router; `write` stores the endpoint file (0600) once the URL is known. */
export interface AdminApi {
  router: Router;
  token: string;
  /** Writes `<dataDir>/admin.json` (0600, replaced atomically); returns its removal. */
  publish(dataDir: string, url: string): Promise<() => Promise<void>>;
}

export function createAdminRouter(deps: { db: Database; token?: string }): AdminApi {
  const { db } = deps;
  const token = deps.token ?? randomBytes(32).toString('base64url');
  const accounts = createAccounts(db);
  const usage = createUsage(db);
  const router = express.Router();
  router.use(guard(token));
  const json = jsonBody(64 * 1024);

  const wrap =
    (fn: (req: Request) => Promise<unknown>, status = 201): RequestHandler =>
    (req, res, next) => {
      fn(req).then(
        (body) => res.status(status).json(body),
        (err: unknown) =>
          next(err instanceof AccountError ? new ApiError('validation_failed', (err as Error).message) : err),
      );
    };

  router.post(
    '/accounts',
    json,
    wrap(async (req) => ({ account: await accounts.createAccount({ name: text(req.body?.name, 'name') }) })),
  );
  router.post(
    '/users',
    json,
    wrap(async (req) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const user = await accounts.createUser({
        email: text(body.email, 'email'),
        password: text(body.password, 'password'),
        accountId: optionalText(body.accountId, 'accountId'),
      });
      return { user };
    }),
  );
  router.post(
    '/clients',
    json,
    wrap(async (req) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const { client, clientSecret } = await accounts.createClient({
        name: text(body.name, 'name'),
        accountId: optionalText(body.accountId, 'accountId'),
        grantTypes: optionalList(body.grantTypes, 'grantTypes') as never,
        redirectUris: optionalList(body.redirectUris, 'redirectUris'),
        scopes: optionalText(body.scopes, 'scopes'),
        public: body.public === true,
      });
      const { secretHash: _hash, metadata: _metadata, ...shown } = client;
      return { client: shown, clientSecret };
    }),
  );
  router.get(
    '/quotas/:account',
    wrap(async (req) => ({ quotas: await usage.quotas(String(req.params.account)) }), 200),
  );
  router.put(
    '/quotas/:account',
    json,
    wrap(async (req) => {
      const parsed = QuotaUpdate.safeParse(req.body);
      if (!parsed.success)
        throw new ApiError('validation_failed', parsed.error.issues.map((issue) => issue.message).join('; '));
      const accountId = String(req.params.account);
      if (!(await accounts.findAccount(accountId))) throw new ApiError('not_found', 'account not found');
      const before = await usage.quotas(accountId);
      const after = await usage.setQuotas(accountId, parsed.data);
      await createAuditLog(db).record({
        accountId,
        action: 'quota.changed',
        actor: { type: 'system' },
        target: { type: 'account', id: accountId },
        details: { before, after, via: 'cli' },
      });
      return { quotas: after };
    }, 200),
  );

  router.post('/import/:what', (req, res, next) => {
    const what = req.params.what;
    if (what !== 'contacts' && what !== 'properties' && what !== 'suppression') return next();
    let options: Record<string, unknown>;
    try {
      options = importOptions(req);
    } catch (err) {
      return next(err);
    }
    res.status(200).type('application/x-ndjson');
    const line = (value: unknown) => res.write(`${JSON.stringify(value)}\n`);
    let lastProgress = 0;
    const onProgress = (counts: ImportCounts) => {
      if (Date.now() - lastProgress < 1000) return;
      lastProgress = Date.now();
      line({ progress: counts });
    };
    const rejects = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        line({ rejects: chunk.toString() });
        done();
      },
    });
    const charset = typeof options.charset === 'string' ? options.charset : undefined;
    const common = {
      format: options.format === 'ndjson' ? ('ndjson' as const) : ('csv' as const),
      map: (options.map ?? undefined) as Record<string, string> | undefined,
      source: typeof options.source === 'string' ? options.source : undefined,
      charset,
      rejects,
      onProgress,
    };
    const run =
      what === 'suppression'
        ? importSuppression(db, req, {
            kind: options.kind === 'litigator' ? 'litigator' : 'dnc',
            charset,
            onProgress,
          })
        : (what === 'contacts' ? importContacts : importProperties)(db, req, common);
    run.then(
      (counts) => res.end(`${JSON.stringify({ counts })}\n`),
      (err: unknown) => {
        const known =
          err instanceof ImportFormatError
            ? new ApiError('validation_failed', err.message)
            : err instanceof DependencyUnavailableError
              ? err.toApiError()
              : err instanceof ApiError
                ? err
                : undefined;
        if (!known) req.log?.error({ err }, 'admin import failed');
        const body = known?.body() ?? { error: 1500, message: 'the import failed (details in the server log)' };
        res.end(`${JSON.stringify({ error: body })}\n`);
      },
    );
  });

  router.use(errorHandler());

  return {
    router,
    token,
    async publish(dataDir: string, url: string): Promise<() => Promise<void>> {
      const path = adminEndpointPath(dataDir);
      const endpoint: AdminEndpoint = { pid: process.pid, url, token };
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(endpoint)}\n`, { mode: 0o600 });
      await rename(temporary, path);
      return () => unlink(path).catch(() => undefined);
    },
  };
}
