import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../src/index.ts';

const schema = z
  .object({ PORT: z.coerce.number().int().default(8080), SECRET: z.string().min(4) })
  .transform((e) => ({ port: e.PORT, secret: e.SECRET }));

describe('loadConfig', () => {
  it('parses and applies defaults', () => {
    expect(loadConfig(schema, { SECRET: 'abcd' })).toEqual({ port: 8080, secret: 'abcd' });
  });

  it('reads a declared secret from X_FILE and ignores other *_FILE variables', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    writeFileSync(join(dir, 's'), 'from-file\n');
    const env = { SECRET_FILE: join(dir, 's'), TF_CLI_CONFIG_FILE: '/nonexistent' };
    expect(loadConfig(schema, env).secret).toBe('from-file');
  });

  it('fails fast naming every bad variable', () => {
    expect(() => loadConfig(schema, { PORT: 'x', SECRET: 'a' })).toThrow(ConfigError);
    expect(() => loadConfig(schema, { PORT: 'x', SECRET: 'a' })).toThrow(/PORT[\s\S]*SECRET/);
  });

  it('fails when a declared secret file cannot be read', () => {
    expect(() => loadConfig(schema, { SECRET_FILE: '/nonexistent/secret' })).toThrow(/SECRET_FILE/);
  });
});
