/**
 * Every call the console makes to the API, in one module: the pages never build URLs or
 * read headers themselves. Types come from the shared contracts (type-only imports: no
 * schema code is bundled). Errors carry the API's documented body {error, message}.
 */
import type {
  BatchSummary,
  Property,
  PropertyResponse,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '@skiptrace/contracts';
import { accessToken, getConfig, refreshOnce, signInHere } from './auth.ts';
import type { UploadFormat } from './preview.ts';

export type { BatchSummary, Property, PropertyResponse, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret };

/** GET /property/skiptrace/batches/{id}: the summary plus progress figures. */
export interface BatchStatus extends BatchSummary {
  accepted: number;
  started_at: string | null;
  updated_at: string;
  /** Rows per second since the first chunk started. */
  rate: number;
  eta_seconds: number | null;
  status_url: string;
  results_url: string;
}

export interface BatchAccepted {
  id: string;
  status: BatchSummary['status'];
  accepted: number;
  rejected: number;
  status_url: string;
}

/** An OAuth client of the account (client-management API). */
export interface ApiClient {
  client_id: string;
  name: string;
  scopes: string;
  grant_types: string[];
  created_at: string;
}
export interface ApiClientWithSecret extends ApiClient {
  client_secret: string;
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly code: number | undefined;
  constructor(status: number, code: number | undefined, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function send(path: string, init: RequestInit = {}, retried = false): Promise<Response> {
  const token = await accessToken();
  const res = await fetch(`${getConfig().apiBase}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...init.headers },
  });
  if (res.status === 401 && !retried) {
    await refreshOnce().catch(() => signInHere());
    return send(path, init, true);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: number; message?: string };
    throw new ApiError(res.status, body.error, body.message ?? `${res.status} ${res.statusText}`);
  }
  return res;
}

const json = async <T>(path: string, init: RequestInit = {}): Promise<T> =>
  (await send(path, init)).json() as Promise<T>;
const body = (value: unknown): RequestInit => ({
  body: JSON.stringify(value),
  headers: { 'content-type': 'application/json' },
});

async function page<T>(path: string): Promise<Page<T>> {
  const res = await send(path);
  return { items: (await res.json()) as T[], next: res.headers.get('x-next-cursor') };
}
const query = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  return q.size ? `?${q}` : '';
};

// #region Skip trace
export const trace = (property: Property) =>
  json<PropertyResponse>('/property/skiptrace', { method: 'POST', ...body(property) });
export const getTrace = (id: number) => json<PropertyResponse>(`/property/skiptrace/${id}`);
export const listTraces = (limit: number, cursor?: string) =>
  page<PropertyResponse>(`/property/skiptrace${query({ limit, cursor })}`);
export const erase = async (id: number) => void (await send(`/plants/${id}`, { method: 'DELETE' }));
// #endregion

// #region Batches
const CONTENT_TYPES: Record<UploadFormat, string> = {
  csv: 'text/csv',
  ndjson: 'application/x-ndjson',
  json: 'application/json',
};
/** map: Property field → input column name. */
export function submitBatch(file: Blob, format: UploadFormat, map: Record<string, string>) {
  const pairs = Object.entries(map).map(([field, column]) => `${field}:${column}`);
  return json<BatchAccepted>(`/property/skiptrace/batches${query({ map: pairs.join(',') || undefined })}`, {
    method: 'POST',
    body: file,
    headers: { 'content-type': CONTENT_TYPES[format] },
  });
}
export const getBatch = (id: string) => json<BatchStatus>(`/property/skiptrace/batches/${id}`);
export const listBatches = (limit: number, cursor?: string) =>
  page<BatchStatus>(`/property/skiptrace/batches${query({ limit, cursor })}`);
export const cancelBatch = (id: string) => json<BatchStatus>(`/property/skiptrace/batches/${id}`, { method: 'DELETE' });
export const purgeBatch = async (id: string) =>
  void (await send(`/property/skiptrace/batches/${id}?purge=true`, { method: 'DELETE' }));
export const batchResults = async (id: string, format: 'csv' | 'ndjson') =>
  (await send(`/property/skiptrace/batches/${id}/results?format=${format}`, { headers: { accept: '*/*' } })).blob();
// #endregion

// #region Webhooks
export const listEndpoints = async () => (await json<{ data: WebhookEndpoint[] }>('/webhooks/endpoints')).data;
export const createEndpoint = (input: { url: string; description?: string; events?: string[] | null }) =>
  json<WebhookEndpointWithSecret>('/webhooks/endpoints', { method: 'POST', ...body(input) });
export const updateEndpoint = (id: string, patch: { enabled?: boolean; url?: string; description?: string | null }) =>
  json<WebhookEndpoint>(`/webhooks/endpoints/${id}`, { method: 'PATCH', ...body(patch) });
export const deleteEndpoint = async (id: string) =>
  void (await send(`/webhooks/endpoints/${id}`, { method: 'DELETE' }));
export const rotateEndpointSecret = (id: string) =>
  json<WebhookEndpointWithSecret>(`/webhooks/endpoints/${id}/rotate-secret`, { method: 'POST' });
export const testEndpoint = (id: string) => json<WebhookDelivery>(`/webhooks/endpoints/${id}/test`, { method: 'POST' });
export const listDeliveries = async (endpointId: string, limit = 100) =>
  (await json<{ data: WebhookDelivery[] }>(`/webhooks/endpoints/${endpointId}/deliveries${query({ limit })}`)).data;
export const replayDelivery = (id: string) =>
  json<WebhookDelivery>(`/webhooks/deliveries/${id}/replay`, { method: 'POST' });
// #endregion

// #region API clients
export const listClients = async () => (await json<{ data: ApiClient[] }>('/clients')).data;
export const createClient = (input: { name: string; scopes: string }) =>
  json<ApiClientWithSecret>('/clients', { method: 'POST', ...body(input) });
export const rotateClientSecret = (id: string) =>
  json<ApiClientWithSecret>(`/clients/${encodeURIComponent(id)}/rotate-secret`, { method: 'POST' });
export const revokeClient = async (id: string) =>
  void (await send(`/clients/${encodeURIComponent(id)}`, { method: 'DELETE' }));
// #endregion
