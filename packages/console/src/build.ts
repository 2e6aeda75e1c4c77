/**
 * Builds the console (the browser app in ../app) with Vite into ../dist, or leaves the
 * existing build when it was made from the same sources. The gateway and the standalone
 * call ensureConsoleBuilt() on start, so `./run start` needs no separate build command and
 * an edited source is rebuilt on the next start. The build output is never committed.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CONSOLE_APP_DIR = join(packageDir, 'app');
export const CONSOLE_DIST_DIR = join(packageDir, 'dist');
const STAMP = 'build-stamp.json';

/** Files whose content decides the build: the app, this builder and the packages the app bundles. */
async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else out.push(path);
  }
  return out.sort();
}

/** SHA-256 over the app's sources, the builder itself and the package manifest. */
export async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = [
    ...(await sourceFiles(CONSOLE_APP_DIR)),
    fileURLToPath(import.meta.url),
    join(packageDir, 'src', 'vite-build.ts'),
    join(packageDir, 'package.json'),
    // Bundled from other packages of the repository: the mapping pre-fill, the owner texts and the API client.
    resolve(packageDir, '../../packages/batches/src/column-rules.ts'),
    resolve(packageDir, '../../packages/batches/src/owner-text.ts'),
    resolve(packageDir, '../../packages/client/src/index.ts'),
  ];
  for (const file of files) {
    hash
      .update(relative(packageDir, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  return hash.digest('hex');
}

async function builtHash(dir: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(join(dir, STAMP), 'utf8')) as { hash?: string }).hash;
  } catch {
    return undefined;
  }
}

export interface EnsureBuiltResult {
  dir: string;
  /** True when this call ran Vite; false when the existing build was current. */
  built: boolean;
  ms: number;
}

/**
 * Builds into a temporary folder and renames it into place, so a server never serves a
 * half-written build and two processes starting at once do not corrupt each other's.
 */
export async function ensureConsoleBuilt(options: { log?: (msg: string) => void } = {}): Promise<EnsureBuiltResult> {
  const started = Date.now();
  const hash = await sourceHash();
  if ((await builtHash(CONSOLE_DIST_DIR)) === hash) return { dir: CONSOLE_DIST_DIR, built: false, ms: 0 };
  options.log?.('building the web console (first start or changed sources)');
  const tmp = join(packageDir, `.dist-${process.pid}-${Date.now()}`);
  try {
    await promisify(execFile)(process.execPath, [join(packageDir, 'src', 'vite-build.ts'), tmp], {
      timeout: 180_000,
    });
    await writeFile(join(tmp, STAMP), JSON.stringify({ hash, builtAt: new Date().toISOString() }));
    if ((await builtHash(CONSOLE_DIST_DIR)) === hash) return { dir: CONSOLE_DIST_DIR, built: false, ms: 0 };
    const old = `${CONSOLE_DIST_DIR}-old-${process.pid}`;
    await rename(CONSOLE_DIST_DIR, old).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    await rename(tmp, CONSOLE_DIST_DIR);
    await rm(old, { recursive: true, force: true });
    return { dir: CONSOLE_DIST_DIR, built: true, ms: Date.now() - started };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
