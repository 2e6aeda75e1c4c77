/**
 * Signing keys for access tokens. Sources, in order: AUTH_SIGNING_KEYS (a JWKS of private
 * keys; the operator rotates it), else a key store — the auth_signing_keys table (shared by
 * all replicas) or, in the one-process mode, <SKIPTRACE_DATA_DIR>/keys.json. An empty store
 * gets a fresh ES256 key (used for access tokens) and an RS256 key (for clients that ask for
 * RS256 ID tokens). Rotation adds keys and never removes them: a new key is published in
 * the JWKS at once and used for signing from activateAt on, so gateways have seen it before
 * the first token carries its kid. The provider reads the keys at start: restart (or roll)
 * the auth service after rotating.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '@skiptrace/storage';

export interface StoredKey {
  kid: string;
  jwk: JWK;
  /** Epoch ms from which the key signs; before it the key is only published. */
  activateAt: number;
}

export interface KeyStore {
  list(): Promise<StoredKey[]>;
  add(keys: StoredKey[]): Promise<void>;
  /** Overwrites stored keys (same kid) with these, e.g. re-encrypted ones. */
  replace(keys: StoredKey[]): Promise<void>;
}

export async function generateKey(alg: 'ES256' | 'RS256', activateAt = Date.now()): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, jwk: { ...jwk, kid, alg, use: 'sig' }, activateAt };
}

export function databaseKeyStore(db: Database): KeyStore {
  return {
    async list() {
      const { rows } = await db.query<{ kid: string; jwk: JWK; activate_at: Date }>(
        'SELECT kid, jwk, activate_at FROM auth_signing_keys',
      );
      return rows.map((r) => ({ kid: r.kid, jwk: r.jwk, activateAt: r.activate_at.getTime() }));
    },
    async add(keys) {
      for (const k of keys)
        await db.query(
          'INSERT INTO auth_signing_keys (kid, jwk, activate_at) VALUES ($1, $2, $3) ON CONFLICT (kid) DO NOTHING',
          [k.kid, JSON.stringify(k.jwk), new Date(k.activateAt)],
        );
    },
    async replace(keys) {
      for (const k of keys)
        await db.query('UPDATE auth_signing_keys SET jwk = $2 WHERE kid = $1', [k.kid, JSON.stringify(k.jwk)]);
    },
  };
}

/** keys.json in the data directory (mode 0600). One process only: no locking. */
export function fileKeyStore(dataDir: string): KeyStore {
  const path = join(dataDir, 'keys.json');
  const list = async (): Promise<StoredKey[]> => {
    try {
      return (JSON.parse(await readFile(path, 'utf8')) as { keys: StoredKey[] }).keys;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  };
  const save = async (keys: StoredKey[]) => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(path, JSON.stringify({ keys }, null, 2), { mode: 0o600 });
    await chmod(path, 0o600);
  };
  return {
    list,
    async add(keys) {
      await save([...(await list()), ...keys]);
    },
    async replace(keys) {
      const byKid = new Map(keys.map((k) => [k.kid, k]));
      await save((await list()).map((k) => byKid.get(k.kid) ?? k));
    },
  };
}

/** Signing order: active keys newest first, then keys not yet active (published only). */
export function orderKeys(keys: StoredKey[], now = Date.now()): JWK[] {
  const active = keys
    .filter((k) => k.activateAt <= now)
    .sort((a, b) => b.activateAt - a.activateAt || a.kid.localeCompare(b.kid));
  const pending = keys.filter((k) => k.activateAt > now).sort((a, b) => a.activateAt - b.activateAt);
  return [...active, ...pending].map((k) => k.jwk);
}

/** The private JWKs for the provider, generating the first pair when the store is empty. */
export async function loadSigningKeys(store: KeyStore): Promise<JWK[]> {
  let keys = await store.list();
  if (!keys.some((k) => k.jwk.alg === 'ES256')) {
    await store.add([await generateKey('ES256'), await generateKey('RS256')]);
    // Re-read: a replica starting at the same time may have added its own pair.
    keys = await store.list();
  }
  return orderKeys(keys);
}

/** Adds a new ES256 + RS256 pair that signs from now + activateInSec; old keys stay published. */
export async function rotateSigningKey(store: KeyStore, activateInSec = 0): Promise<StoredKey[]> {
  const at = Date.now() + activateInSec * 1000;
  const added = [await generateKey('ES256', at), await generateKey('RS256', at)];
  await store.add(added);
  return added;
}

/** Public half of private JWKs, as published at /oauth/jwks. */
export function publicJwks(keys: JWK[]): { keys: JWK[] } {
  const PRIVATE = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth']);
  return { keys: keys.map((k) => Object.fromEntries(Object.entries(k).filter(([f]) => !PRIVATE.has(f))) as JWK) };
}

export function parseJwks(text: string): JWK[] {
  const parsed = JSON.parse(text) as { keys?: JWK[] };
  if (!Array.isArray(parsed.keys) || !parsed.keys.length) throw new Error('AUTH_SIGNING_KEYS must be a JWKS with keys');
  for (const k of parsed.keys) {
    if (!k.kid || !k.d) throw new Error('every AUTH_SIGNING_KEYS key needs a kid and its private part');
    if (k.alg && k.alg !== 'ES256' && k.alg !== 'RS256') throw new Error(`unsupported signing alg ${k.alg}`);
  }
  if (!parsed.keys.some((k) => k.kty === 'EC' && k.crv === 'P-256'))
    throw new Error('AUTH_SIGNING_KEYS needs an EC P-256 key (ES256 signs access tokens)');
  return parsed.keys;
}
