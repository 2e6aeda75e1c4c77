import { describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildOpenApiDocument } from '../src/index.ts';

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
});
