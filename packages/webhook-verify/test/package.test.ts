/**
 * What a subscriber installs: `pnpm pack` builds dist/ (prepack: tsc) and rewrites the
 * exports to it (publishConfig). The tarball must hold JavaScript and declarations only,
 * and its JavaScript must verify a delivery in a plain Node process, without type stripping.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
let dir: string;
let unpacked: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'webhook-verify-pack-'));
  // npm_execpath is pnpm's own script when the tests run under pnpm (./run); else pnpm on PATH.
  const pnpm = process.env.npm_execpath;
  const [cmd, args] = pnpm?.endsWith('.cjs') || pnpm?.endsWith('.js') ? [process.execPath, [pnpm]] : ['pnpm', []];
  await run(cmd, [...args, 'pack', '--pack-destination', dir], { cwd: PACKAGE_DIR });
  const tarball = (await readdir(dir)).find((f) => f.endsWith('.tgz'))!;
  await run('tar', ['-xzf', join(dir, tarball), '-C', dir]);
  unpacked = join(dir, 'package');
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

it('packs JavaScript with declarations, and exports point at them', async () => {
  const pkg = JSON.parse(await readFile(join(unpacked, 'package.json'), 'utf8'));
  expect(pkg.exports).toEqual({ '.': { types: './dist/index.d.ts', default: './dist/index.js' } });
  expect(pkg.types).toBe('./dist/index.d.ts');
  expect(pkg.devDependencies?.['@skiptrace/testing']).toBeUndefined();
  expect((await readdir(join(unpacked, 'dist'))).sort()).toEqual(['index.d.ts', 'index.js']);
  await expect(readdir(join(unpacked, 'src'))).rejects.toThrow();
  const types = await readFile(join(unpacked, 'dist', 'index.d.ts'), 'utf8');
  expect(types).toContain('export declare function verifyWebhook(');
  expect(types).toContain('export declare class WebhookVerificationError');
});

it('verifies the Standard Webhooks test vector from the packed JavaScript in plain Node', async () => {
  const script = `
    import { verifyWebhook } from ${JSON.stringify(join(unpacked, 'dist', 'index.js'))};
    const body = verifyWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '{"test": 2432232314}', {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    }, { now: 1614265330000 });
    process.stdout.write(JSON.stringify(body));`;
  const { stdout } = await run(process.execPath, [
    '--no-experimental-strip-types',
    '--input-type=module',
    '-e',
    script,
  ]);
  expect(JSON.parse(stdout)).toEqual({ test: 2432232314 });
});
