// The Dockerfile, checked as text (no engine or hadolint here): the habits a reviewer
// would look for, and that every path it copies exists and is in the build context.
import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readText, root } from './infra-files.ts';

const dockerfile = readText('Dockerfile')
  .replace(/\\\n/g, ' ')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
const ignored = readText('.dockerignore')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const instr = (name: string) => dockerfile.filter((l) => l.toUpperCase().startsWith(`${name} `));
const finalStage = dockerfile.slice(dockerfile.map((l) => l.toUpperCase().startsWith('FROM ')).lastIndexOf(true));

describe('Dockerfile', () => {
  it('is multi-stage on node:24-slim', () => {
    expect(instr('FROM').length).toBeGreaterThanOrEqual(2);
    expect(instr('ARG').join('\n')).toMatch(/NODE_IMAGE=node:24-slim/);
    for (const from of instr('FROM')) expect(from).toMatch(/^FROM (\$\{NODE_IMAGE\}|[a-z-]+) AS [a-z-]+$/);
  });

  it('installs production dependencies only, from the lockfile', () => {
    const run = instr('RUN').join('\n');
    expect(run).toMatch(/pnpm install[^\n]*--frozen-lockfile/);
    expect(run).toMatch(/pnpm install[^\n]*--prod/);
    expect(run).toContain('corepack enable');
  });

  it('runs as a numeric non-root user, in production mode, with a health check', () => {
    const user = finalStage.filter((l) => l.startsWith('USER ')).at(-1);
    expect(user).toMatch(/^USER [1-9]\d*(:\d+)?$/);
    expect(finalStage.join('\n')).toMatch(/NODE_ENV=production/);
    expect(finalStage.some((l) => l.startsWith('HEALTHCHECK ') && l.includes('/healthz'))).toBe(true);
    expect(dockerfile.join('\n')).toMatch(/ARG SERVICE=/);
    expect(finalStage.filter((l) => l.startsWith('CMD ')).at(-1)).toMatch(
      /exec node .*services\/\$\{SKIPTRACE_SERVICE\}\/src\/main\.ts/,
    );
  });

  it('copies only paths that exist and are in the build context', () => {
    for (const line of instr('COPY').filter((l) => !l.includes('--from='))) {
      const sources = line.split(/\s+/).slice(1, -1);
      for (const src of sources) {
        expect({ src, exists: existsSync(join(root, src)) }).toEqual({ src, exists: true });
        expect({ src, ignored: ignored.includes(src) }).toEqual({ src, ignored: false });
      }
    }
  });

  it('keeps secrets, local state and tooling out of the context, and the sources in', () => {
    for (const path of ['.git', '.data', '.env', '**/node_modules', '.tools']) expect(ignored).toContain(path);
    for (const path of ['packages', 'services', 'examples', 'package.json', 'pnpm-lock.yaml']) {
      expect(ignored).not.toContain(path);
    }
  });
});
