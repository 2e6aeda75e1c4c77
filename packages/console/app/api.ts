/**
 * Every call the console makes to the API, in one module, through the typed client
 * (@skiptrace/client: openapi-fetch over types generated from the OpenAPI document), so a
 * changed route or schema fails the console's type check. Pages never build URLs or read
 * headers. A 401 refreshes the token once and repeats the request.
 */
import { createApiClient, toApiError, type Schemas } from '@skiptrace/client';
import { accessToken, getConfig, refreshOnce, signInHere } from './auth.ts';

export { ApiRequestError as ApiError } from '@skiptrace/client';

export type Property = Schemas['Property'];
export type PropertyResponse = Schemas['PropertyResponseOutput'];
export type BatchStatus = Schemas['BatchStatus'];
export type BatchAccepted = Schemas['BatchAccepted'];
export type BatchPreview = Schemas['BatchPreview'];
export type BatchReject = Schemas['BatchReject'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type ApiClient = Schemas['ApiClient'];
export type ApiClientWithSecret = Schemas['ApiClientWithSecret'];
export type Member = Schemas['Member'];
export type MemberLink = Schemas['MemberLink'];
export type Role = Member['role'];
export type AuditEntry = Schemas['AuditEntry'];
export type AuditAction = AuditEntry['action'];

export interface Page<T> {
  items: T[];
  next: string | null;
}

/** fetch that refreshes the access token once on a 401 and sends the request again. */
async function fetchWithRefresh(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const spare = request.clone();
  const res = await fetch(request);
  if (res.status !== 401) return res;
  await refreshOnce().catch(() => signInHere());
  spare.headers.set('authorization', `Bearer ${await accessToken()}`);
  return fetch(spare);
}

let client: ReturnType<typeof createApiClient> | undefined;
const api = () =>
  (client ??= createApiClient({
    baseUrl: new URL(getConfig().apiBase, location.origin).href,
    token: accessToken,
    fetch: fetchWithRefresh,
  }));

interface Result<T> {
  data?: T;
  error?: unknown;
  response: Response;
}
/** The body of a 2xx answer with its response (for headers), or the API's error. */
async function call<T>(pending: Promise<Result<T>>): Promise<{ data: T; response: Response }> {
  const { data, error, response } = await pending;
  if (!response.ok || error !== undefined) throw toApiError(response, error);
  return { data: data as T, response };
}
const body = async <T>(pending: Promise<Result<T>>): Promise<T> => (await call(pending)).data;
const page = async <T>(pending: Promise<Result<T[]>>): Promise<Page<T>> => {
  const { data, response } = await call(pending);
  return { items: data, next: response.headers.get('x-next-cursor') };
};

// #region Skip trace
export const trace = (property: Property) => body(api().POST('/property/skiptrace', { body: property }));
export const getTrace = (id: number) => body(api().GET('/property/skiptrace/{id}', { params: { path: { id } } }));
/** History's filters (GET /property/skiptrace): each narrows the list, all given must hold. */
export interface HistoryFilters {
  address?: string;
  name?: string;
  phone?: string;
  batch?: string;
  status?: PropertyResponse['status'];
  from?: string;
  to?: string;
}
export const listTraces = (limit: number, cursor?: string, filters: HistoryFilters = {}) =>
  page(api().GET('/property/skiptrace', { params: { query: { ...filters, limit, cursor } } }));
export const erase = (id: number) => body(api().DELETE('/plants/{id}', { params: { path: { id } } }));
// #endregion

// #region Batches
/** The upload formats the batch API takes. */
export type UploadFormat = 'csv' | 'ndjson' | 'json' | 'xlsx';

const CONTENT_TYPES = {
  csv: 'text/csv',
  ndjson: 'application/x-ndjson',
  json: 'application/json',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** How the server is to read a file: the encoding, CSV delimiter and XLSX sheet (each: detected when absent). */
export interface ReadChoice {
  charset?: string;
  delimiter?: string;
  sheet?: string;
}
const readQuery = (read: ReadChoice) => ({
  charset: read.charset || undefined,
  delimiter: read.delimiter || undefined,
  sheet: read.sheet || undefined,
});
const mapQuery = (map: Record<string, string>) =>
  Object.entries(map)
    .map(([field, column]) => `${field}=${column}`)
    .join(',') || undefined;
const rawBody = { bodySerializer: (b: unknown) => b as BodyInit } as const;

/**
 * The start of a file read by the server exactly as its upload would be (the same decoder,
 * delimiter sniffing, sheet and mapping rules, the account's saved mappings): `partial` when
 * `file` is only the head of a larger one.
 */
export const previewBatch = (file: Blob, format: UploadFormat, read: ReadChoice, partial: boolean) =>
  body(
    api().POST('/property/skiptrace/batches/preview', {
      params: { query: { ...readQuery(read), partial: partial ? 'true' : undefined } },
      body: file as unknown as string,
      ...rawBody,
      headers: { 'content-type': CONTENT_TYPES[format] },
    }),
  );

/** A new list's name and tags, and whether every row is traced afresh (no reuse of recent results). */
export interface ListIdentity {
  name?: string;
  tags?: string[];
  fresh?: boolean;
}

/** Streams the file as it is; map: field → input column name; saveMapping remembers it for this header set. */
export function submitBatch(
  file: Blob,
  format: UploadFormat,
  map: Record<string, string>,
  read: ReadChoice = {},
  saveMapping = false,
  identity: ListIdentity = {},
) {
  return body(
    api().POST('/property/skiptrace/batches', {
      params: {
        query: {
          map: mapQuery(map),
          ...readQuery(read),
          save_mapping: saveMapping ? 'true' : undefined,
          name: identity.name || undefined,
          tags: identity.tags?.length ? identity.tags.join(',') : undefined,
          fresh: identity.fresh ? 'true' : undefined,
        },
      },
      body: file as unknown as string,
      ...rawBody,
      headers: { 'content-type': CONTENT_TYPES[format] },
    }),
  );
}
export const getBatch = (id: string) =>
  body(api().GET('/property/skiptrace/batches/{id}', { params: { path: { id } } }));
export const listBatches = (limit: number, cursor?: string) =>
  page(api().GET('/property/skiptrace/batches', { params: { query: { limit, cursor } } }));
export const updateBatch = (id: string, update: Schemas['BatchUpdate']) =>
  body(api().PATCH('/property/skiptrace/batches/{id}', { params: { path: { id } }, body: update }));
/** A new batch of the batch's misses (or all its rows), traced afresh. */
export const rerunBatch = (id: string, request: Schemas['BatchRerun']) =>
  body(api().POST('/property/skiptrace/batches/{id}/rerun', { params: { path: { id } }, body: request }));
export const cancelBatch = (id: string) =>
  body(api().DELETE('/property/skiptrace/batches/{id}', { params: { path: { id } } })) as Promise<BatchStatus>;
export const purgeBatch = (id: string) =>
  body(api().DELETE('/property/skiptrace/batches/{id}', { params: { path: { id }, query: { purge: 'true' } } }));
export const batchResults = (id: string, format: 'csv' | 'ndjson' | 'xlsx') =>
  body(
    api().GET('/property/skiptrace/batches/{id}/results', {
      params: { path: { id }, query: { format } },
      parseAs: 'blob',
    }),
  );
/** The batch's rejected rows after row `after`, with their row numbers and reasons. */
export const listRejects = (id: string, after: number, limit: number) =>
  body(api().GET('/property/skiptrace/batches/{id}/rejects', { params: { path: { id }, query: { after, limit } } }));
/** Every reject as a CSV file (row, reason, the input columns). */
export const rejectsCsv = (id: string) =>
  body(
    api().GET('/property/skiptrace/batches/{id}/rejects', {
      params: { path: { id }, query: { format: 'csv' } },
      parseAs: 'blob',
    }),
  );
// #endregion

// #region Webhooks
export const listEndpoints = async () => (await body(api().GET('/webhooks/endpoints'))).data;
export const createEndpoint = (input: Schemas['WebhookEndpointCreate']) =>
  body(api().POST('/webhooks/endpoints', { body: input }));
export const updateEndpoint = (id: string, patch: Schemas['WebhookEndpointPatch']) =>
  body(api().PATCH('/webhooks/endpoints/{id}', { params: { path: { id } }, body: patch }));
export const deleteEndpoint = (id: string) =>
  body(api().DELETE('/webhooks/endpoints/{id}', { params: { path: { id } } }));
export const rotateEndpointSecret = (id: string) =>
  body(api().POST('/webhooks/endpoints/{id}/rotate-secret', { params: { path: { id } } }));
export const testEndpoint = (id: string) =>
  body(api().POST('/webhooks/endpoints/{id}/test', { params: { path: { id } } }));
export const listDeliveries = async (id: string, limit = 100) =>
  (await body(api().GET('/webhooks/endpoints/{id}/deliveries', { params: { path: { id }, query: { limit } } }))).data;
export const replayDelivery = (id: string) =>
  body(api().POST('/webhooks/deliveries/{id}/replay', { params: { path: { id } } }));
// #endregion

// #region API clients
export const listClients = async () => (await body(api().GET('/clients'))).data;
export type ApiScope = NonNullable<Schemas['ApiClientCreate']['scopes']>[number];
export const createClient = (input: { name: string; scopes: ApiScope[] }) =>
  body(api().POST('/clients', { body: input }));
export const rotateClientSecret = (id: string) =>
  body(api().POST('/clients/{id}/rotate-secret', { params: { path: { id } } }));
export const revokeClient = (id: string) => body(api().DELETE('/clients/{id}', { params: { path: { id } } }));
// #endregion

// #region Members
export const listMembers = async () => (await body(api().GET('/members'))).data;
export const inviteMember = (input: { email: string; role: Role }) => body(api().POST('/members', { body: input }));
export const changeMemberRole = (id: string, role: Role) =>
  body(api().PATCH('/members/{id}', { params: { path: { id } }, body: { role } }));
export const removeMember = (id: string) => body(api().DELETE('/members/{id}', { params: { path: { id } } }));
export const resetMemberPassword = (id: string) =>
  body(api().POST('/members/{id}/reset-password', { params: { path: { id } } }));
// #endregion

// #region Audit log
export interface AuditFilters {
  actor?: string;
  action?: AuditAction;
  from?: string;
  to?: string;
}
export const listAudit = async (filters: AuditFilters, limit: number, cursor?: string): Promise<Page<AuditEntry>> => {
  const { data, response } = await call(api().GET('/audit', { params: { query: { ...filters, limit, cursor } } }));
  return { items: data.data, next: response.headers.get('x-next-cursor') };
};
// #endregion

// #region Usage
export type Usage = Schemas['Usage'];
export const getUsage = (query: { from?: string; to?: string; group_by: 'day' | 'client' }) =>
  body(api().GET('/usage', { params: { query } }));
// #endregion
