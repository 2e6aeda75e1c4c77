import { describe, expect, it } from '@jest/globals';
import { ApiRequestError, apiBaseUrl, createApiClient, unwrap, type Schemas } from '../src/index.ts';

/** A fetch that records each request and answers from `reply`. */
function fakeFetch(reply: (req: Request) => Response) {
  const seen: Request[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(input, init);
    seen.push(req);
    return reply(req);
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('apiBaseUrl', () => {
  it('accepts the server base with or without /api/v1 and trailing slashes', () => {
    expect(apiBaseUrl('http://h:8080')).toBe('http://h:8080/api/v1');
    expect(apiBaseUrl('http://h:8080/')).toBe('http://h:8080/api/v1');
    expect(apiBaseUrl('http://h:8080/api/v1')).toBe('http://h:8080/api/v1');
    expect(apiBaseUrl('http://h:8080/api/v1/')).toBe('http://h:8080/api/v1');
    expect(apiBaseUrl('https://h/prefix')).toBe('https://h/prefix/api/v1');
  });
});

describe('createApiClient', () => {
  it('sends the bearer token (asked per request) to the typed path', async () => {
    let token = 'first';
    const { fetch, seen } = fakeFetch(() => json(200, { id: 7, status: 'pending' }));
    const api = createApiClient({ baseUrl: 'http://h:8080', token: () => token, fetch });
    const one = await unwrap(api.GET('/property/skiptrace/{id}', { params: { path: { id: 7 } } }));
    token = 'second';
    await unwrap(api.GET('/property/skiptrace/{id}', { params: { path: { id: 7 } } }));
    const typed: Schemas['PropertyResponse'] = one;
    expect(typed.status).toBe('pending');
    expect(seen.map((r) => r.url)).toEqual([
      'http://h:8080/api/v1/property/skiptrace/7',
      'http://h:8080/api/v1/property/skiptrace/7',
    ]);
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer first', 'Bearer second']);
  });

  it('turns an Error body into an ApiRequestError with status, code and message', async () => {
    const { fetch } = fakeFetch(() => json(404, { error: 1004, message: 'batch not found' }));
    const api = createApiClient({ baseUrl: 'http://h:8080/api/v1', token: 't', fetch });
    const failure = unwrap(api.GET('/property/skiptrace/batches/{id}', { params: { path: { id: '9' } } }));
    await expect(failure).rejects.toBeInstanceOf(ApiRequestError);
    await expect(failure).rejects.toMatchObject({ status: 404, code: 1004, message: 'batch not found' });
  });

  it('reports a non-JSON failure by its status text', async () => {
    const { fetch } = fakeFetch(() => new Response('upstream down', { status: 502 }));
    const api = createApiClient({ baseUrl: 'http://h:8080', fetch });
    await expect(unwrap(api.GET('/property/skiptrace', {}))).rejects.toMatchObject({
      status: 502,
      message: 'upstream down',
    });
  });
});
