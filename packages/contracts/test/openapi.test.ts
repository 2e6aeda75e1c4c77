import { describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API_ROUTES, buildOpenApiDocument } from '../src/index.ts';

type Json = Record<string, unknown>;
const doc = buildOpenApiDocument({ apiUrl: 'http://localhost:8080/api/v1', authUrl: 'http://localhost:8080' });

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('covers every path and the webhook of the seed', () => {
    const paths = doc.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/property/skiptrace']!)).toEqual(expect.arrayContaining(['get', 'post']));
    expect(paths['/plants/{id}']!.delete).toBeDefined();
    expect(Object.keys(doc.webhooks as object)).toContain('plant.added');
  });

  it('says version 1.0.0 under the MIT licence', () => {
    expect(doc.info).toMatchObject({ version: '1.0.0', license: { name: 'MIT' } });
  });

  it('resolves every component reference', () => {
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
    for (const r of refs) expect(schemas).toHaveProperty(r.split('/').pop()!);
    expect(schemas).toHaveProperty('Property');
    expect(schemas).toHaveProperty('Error');
  });

  it('has an operation for every route definition, with its errors and examples', () => {
    const paths = doc.paths as Record<string, Record<string, { operationId: string; responses: Record<string, Json> }>>;
    for (const route of API_ROUTES) {
      const op = paths[route.path]?.[route.method];
      expect(op?.operationId).toBe(route.operationId);
      for (const status of ['401', '403', '429', '503']) expect(op!.responses).toHaveProperty(status);
      const example = (op!.responses['401'] as { content: { 'application/json': { examples: Json } } }).content;
      expect(example['application/json'].examples).toHaveProperty('unauthorized.value.error', 1100);
    }
  });

  it('describes the batch status as a schema, not prose', () => {
    const schemas = (doc.components as { schemas: Record<string, { properties?: Json; required?: string[] }> }).schemas;
    expect(schemas.BatchStatus?.properties).toHaveProperty('eta_seconds');
    expect(schemas.BatchStatus?.required).toEqual(expect.arrayContaining(['rate', 'status_url', 'results_url']));
    const paths = doc.paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
    expect(paths['/property/skiptrace/batches/{id}']!.get!.responses['200']).toHaveProperty(
      ['content', 'application/json', 'schema', '$ref'],
      '#/components/schemas/BatchStatus',
    );
  });
});
