import { describe, expect, it } from '@jest/globals';
import { ApiClientCreate, batchesApi, parseScopes, skiptraceApi, TRACE_SCOPES } from '../src/index.ts';

describe('the scopes a new API client gets by default (TRACE_SCOPES)', () => {
  it('cover every route of a first trace: send a property or a list, poll it, download it', () => {
    const firstTrace = [
      skiptraceApi.skipTrace,
      skiptraceApi.getSkipTrace,
      skiptraceApi.listSkipTraces,
      batchesApi.previewBatch,
      batchesApi.submitBatch,
      batchesApi.getBatch,
      batchesApi.listBatches,
      batchesApi.exportBatch,
      batchesApi.listRejects,
    ];
    for (const route of firstTrace) expect(TRACE_SCOPES).toContain(route.scope);
    expect(TRACE_SCOPES).not.toContain('admin');
  });

  it('are the default of POST /clients; an empty or unknown list is refused', () => {
    expect(ApiClientCreate.parse({ name: 'first upload' }).scopes).toEqual(['read', 'write']);
    expect(ApiClientCreate.safeParse({ name: 'x', scopes: [] }).success).toBe(false);
    expect(ApiClientCreate.safeParse({ name: 'x', scopes: ['superuser'] }).success).toBe(false);
  });

  it('parse from spaces or commas, once each, with the unknown names apart', () => {
    expect(parseScopes('read write')).toEqual({ scopes: ['read', 'write'], unknown: [] });
    expect(parseScopes(' write,read  write ')).toEqual({ scopes: ['write', 'read'], unknown: [] });
    expect(parseScopes('read email')).toEqual({ scopes: ['read'], unknown: ['email'] });
    expect(parseScopes('')).toEqual({ scopes: [], unknown: [] });
  });
});
