import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptedKeyStore, parseKeks } from '../src/key-encryption.ts';
import { fileKeyStore, loadSigningKeys } from '../src/signing-keys.ts';
import { createKeyValue } from '@skiptrace/kv';
import { createPgliteDatabase } from '@skiptrace/storage';
import { startAuth } from './harness.ts';

const kekA = randomBytes(32).toString('base64');
const kekB = randomBytes(32).toString('base64url');
const dir = () => mkdtempSync(join(tmpdir(), 'kek-'));
const stored = (d: string) => readFileSync(join(d, 'keys.json'), 'utf8');

describe('signing keys encrypted at rest', () => {
  it('stores no private key material when a key-encryption key is configured', async () => {
    const d = dir();
    const store = encryptedKeyStore(fileKeyStore(d), parseKeks(kekA));
    const keys = await loadSigningKeys(store);
    expect(keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(keys.every((k) => typeof k.d === 'string')).toBe(true);
    const raw = stored(d);
    expect(raw).not.toContain('"d"');
    expect(raw).toContain('"enc": "A256GCM"');
    // A copy of the store alone (no KEK) cannot be used, nor read with another KEK.
    await expect(encryptedKeyStore(fileKeyStore(d), []).list()).rejects.toThrow(/no key-encryption key is configured/);
    await expect(encryptedKeyStore(fileKeyStore(d), parseKeks(kekB)).list()).rejects.toThrow(/not configured/);
    // The same keys come back with the KEK.
    expect((await loadSigningKeys(encryptedKeyStore(fileKeyStore(d), parseKeks(kekA)))).map((k) => k.kid)).toEqual(
      keys.map((k) => k.kid),
    );
  });

  it('encrypts keys stored before encryption was on, and moves them to a new first KEK (rotation)', async () => {
    const d = dir();
    const plain = await loadSigningKeys(fileKeyStore(d));
    expect(stored(d)).toContain('"d"');
    const underA = encryptedKeyStore(fileKeyStore(d), parseKeks(kekA));
    expect(await underA.rewrap()).toBe(2);
    expect(stored(d)).not.toContain('"d"');
    expect(await underA.rewrap()).toBe(0);
    const rotated = encryptedKeyStore(fileKeyStore(d), parseKeks(`${kekB},${kekA}`));
    expect(await rotated.rewrap()).toBe(2);
    const onlyB = encryptedKeyStore(fileKeyStore(d), parseKeks(kekB));
    expect((await loadSigningKeys(onlyB)).map((k) => k.d)).toEqual(plain.map((k) => k.d));
    await expect(encryptedKeyStore(fileKeyStore(d), parseKeks(kekA)).list()).rejects.toThrow(/not configured/);
  });

  it('detects a tampered or moved ciphertext', async () => {
    const d = dir();
    const store = encryptedKeyStore(fileKeyStore(d), parseKeks(kekA));
    await loadSigningKeys(store);
    const file = JSON.parse(stored(d)) as { keys: { kid: string; jwk: Record<string, string> }[] };
    // Swap the envelopes of the two keys: each is bound to its own kid.
    const [a, b] = file.keys;
    const inner = fileKeyStore(d);
    await inner.replace([
      { ...a!, jwk: b!.jwk, activateAt: 0 },
      { ...b!, jwk: a!.jwk, activateAt: 0 },
    ] as never);
    await expect(store.list()).rejects.toThrow(/authenticate/);
  });

  it('refuses key-encryption keys that are too short or not base64', () => {
    expect(() => parseKeks('short')).toThrow(/at least 32 random bytes/);
    expect(() => parseKeks(randomBytes(16).toString('base64'))).toThrow(/at least 32/);
    expect(() => parseKeks(`${kekA},not base64 at all, really not it`)).toThrow(/key-encryption key 2/);
    expect(() => parseKeks(' , ')).toThrow(/no key-encryption key/);
    expect(parseKeks(`${kekA}, ${kekB}`).map((k) => k.id)).toHaveLength(2);
  });
});

describe('the auth service with AUTH_KEY_ENCRYPTION_KEYS', () => {
  it('keeps its generated signing keys encrypted in the database and still issues verifiable tokens', async () => {
    const db = createPgliteDatabase();
    await db.migrate();
    const kv = createKeyValue({});
    const plain = await startAuth(db, kv);
    await plain.close();
    const before = await db.query<{ jwk: Record<string, unknown> }>('SELECT jwk FROM auth_signing_keys');
    expect(before.rows.every((r) => typeof r.jwk.d === 'string')).toBe(true);
    // Turning encryption on re-encrypts the keys already stored; the published kids do not change.
    const auth = await startAuth(db, kv, { keyEncryptionKeys: parseKeks(kekA) });
    const after = await db.query<{ jwk: Record<string, unknown> }>('SELECT jwk FROM auth_signing_keys');
    expect(after.rows.map((r) => [r.jwk.enc, 'd' in r.jwk])).toEqual(after.rows.map(() => ['A256GCM', false]));
    const jwks = (await (await fetch(`${auth.url}/oauth/jwks`)).json()) as { keys: { kid: string; d?: string }[] };
    expect(jwks.keys.length).toBe(2);
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
    await auth.close();
    // A restore of that database without the KEK cannot load (or mint with) the keys.
    await expect(startAuth(db, kv)).rejects.toThrow(/no key-encryption key is configured/);
    await db.close();
    await kv.close();
  });
});
