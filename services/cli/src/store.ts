/**
 * How a CLI command reaches the store, so that it is never a second writer: PostgreSQL
 * (DATABASE_URL) directly — the running services read users, clients and contacts from it
 * on every use, so a change is visible at once; the embedded store directly only when no
 * process holds it; else through the running system's admin API (the URL and token it wrote
 * to `<data dir>/admin.json`, 0600), or a refusal that says what to do.
 */
import { readFile } from 'node:fs/promises';
import { createAccounts, type Accounts } from '@skiptrace/accounts';
import {
  adminEndpointPath,
  dataDirFrom,
  openStore,
  StoreLockedError,
  storeLockHolder,
  type Database,
} from '@skiptrace/storage';

/** The running one-process system's admin API. */
export interface RunningSystem {
  url: string;
  token: string;
  pid: number;
}

export type StoreAccess = { kind: 'direct' } | { kind: 'running'; system: RunningSystem };

/** A store held by a process that offers no admin API (or an old one): the command cannot run now. */
export class StoreBusyError extends Error {
  override name = 'StoreBusyError';
}

function busy(dataDir: string, pid: number): StoreBusyError {
  return new StoreBusyError(
    `the embedded store in ${dataDir} is in use by process ${pid}, which offers no admin API to make this change ` +
      'through: stop that process (Ctrl-C on ./run start) and run the command again, or point both at PostgreSQL (DATABASE_URL)',
  );
}

async function readEndpoint(dataDir: string): Promise<RunningSystem | undefined> {
  try {
    const parsed = JSON.parse(await readFile(adminEndpointPath(dataDir), 'utf8')) as Partial<RunningSystem>;
    if (typeof parsed.url === 'string' && typeof parsed.token === 'string' && typeof parsed.pid === 'number')
      return { url: parsed.url, token: parsed.token, pid: parsed.pid };
  } catch {
    // missing, unreadable (another user's 0600 file) or half-written: no endpoint
  }
  return undefined;
}

/** Where this command's change goes: straight to the store, or through the running system. */
export async function storeAccess(env: NodeJS.ProcessEnv): Promise<StoreAccess> {
  if (env.DATABASE_URL) return { kind: 'direct' };
  const dataDir = dataDirFrom(env);
  const holder = await storeLockHolder(dataDir);
  if (!holder) return { kind: 'direct' };
  const system = await readEndpoint(dataDir);
  if (system && system.pid === holder.pid) return { kind: 'running', system };
  throw busy(dataDir, holder.pid);
}

/** Opens the store for a direct change; a lock taken meanwhile becomes the refusal above. */
export async function openDirect(env: NodeJS.ProcessEnv): Promise<Database> {
  try {
    return await openStore(env);
  } catch (err) {
    if (err instanceof StoreLockedError) throw busy(err.dataDir, err.holder.pid);
    throw err;
  }
}

/** An error answer of the admin API, with the API's message. */
export class AdminApiError extends Error {
  override name = 'AdminApiError';
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** One JSON call to the running system's admin API. */
export async function callSystem<T>(system: RunningSystem, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${system.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${system.token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => undefined)) as { message?: string } | undefined;
  if (!res.ok) throw new AdminApiError(res.status, answer?.message ?? `HTTP ${res.status}`);
  return answer as T;
}

/**
 * Runs an account change: `remote` through the running system when there is one, else
 * `direct` on the store (opened, migrated, closed).
 */
export async function withAccounts<T>(
  env: NodeJS.ProcessEnv,
  direct: (accounts: Accounts, db: Database) => Promise<T>,
  remote: (system: RunningSystem) => Promise<T>,
): Promise<T> {
  const access = await storeAccess(env);
  if (access.kind === 'running') return remote(access.system);
  const db = await openDirect(env);
  try {
    return await direct(createAccounts(db), db);
  } finally {
    await db.close();
  }
}

/** What an import reports through the running system (the contacts package's ImportCounts). */
export interface RemoteImportCounts {
  read: number;
  imported: number;
  duplicates: number;
  rejected: number;
}

/**
 * Streams a file to the running system's import (`/import/contacts|properties|suppression`)
 * and follows its NDJSON answer: pieces of the rejects CSV go to `rejects`, progress to
 * `onProgress`; resolves with the counts, or throws the import's error (a file the user must
 * fix: AdminApiError with status 400).
 */
export async function importThroughSystem(
  system: RunningSystem,
  what: 'contacts' | 'properties' | 'suppression',
  input: NodeJS.ReadableStream & AsyncIterable<Buffer>,
  options: Record<string, unknown>,
  hooks: { rejects?: NodeJS.WritableStream; onProgress?: (counts: RemoteImportCounts) => void } = {},
): Promise<RemoteImportCounts> {
  const query = new URLSearchParams({ options: JSON.stringify(options) });
  const res = await fetch(`${system.url}/import/${what}?${query}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${system.token}`, 'Content-Type': 'application/octet-stream' },
    body: input as unknown as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  if (!res.ok || !res.body) {
    const answer = (await res.json().catch(() => undefined)) as { message?: string } | undefined;
    throw new AdminApiError(res.status, answer?.message ?? `HTTP ${res.status}`);
  }
  let pending = '';
  let counts: RemoteImportCounts | undefined;
  const decoder = new TextDecoder();
  const handle = (line: string) => {
    if (line === '') return;
    const message = JSON.parse(line) as {
      rejects?: string;
      progress?: RemoteImportCounts;
      counts?: RemoteImportCounts;
      error?: { error: number; message: string };
    };
    if (message.rejects !== undefined) hooks.rejects?.write(message.rejects);
    if (message.progress) hooks.onProgress?.(message.progress);
    if (message.counts) counts = message.counts;
    if (message.error) throw new AdminApiError(message.error.error === 1000 ? 400 : 500, message.error.message);
  };
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop()!;
    lines.forEach(handle);
  }
  handle(pending + decoder.decode());
  if (!counts) throw new AdminApiError(502, 'the running system ended the import without its counts');
  return counts;
}
