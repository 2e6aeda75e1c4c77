/**
 * Signing keys encrypted at rest. With key-encryption keys (KEKs) configured
 * (AUTH_KEY_ENCRYPTION_KEYS, usually from a mounted secret file), every private signing key
 * is stored as an AES-256-GCM envelope, so a copy of the database (a backup, a replica, a
 * dump) cannot mint tokens without the KEK, which lives elsewhere. The first KEK encrypts;
 * every listed KEK decrypts. At start, keys stored in plain text (before encryption was
 * turned on) or under an older KEK are re-encrypted with the first one: rotating the KEK
 * is "put the new one first, restart auth, then drop the old one".
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { JWK } from 'jose';
import type { KeyStore, StoredKey } from './signing-keys.ts';

/** How a private JWK is stored when encrypted. */
interface Envelope {
  enc: 'A256GCM';
  /** Which KEK: the first 16 hex digits of SHA-256 of the derived key. */
  kek: string;
  iv: string;
  ct: string;
  tag: string;
}

export interface Kek {
  id: string;
  key: Buffer;
}

const MIN_SECRET_BYTES = 32;

/**
 * Parses the comma-separated KEK list: each entry base64 or base64url of at least 32
 * random bytes (e.g. `openssl rand -base64 32`). Keys are derived with HKDF-SHA256, so an
 * entry is never used directly.
 */
export function parseKeks(value: string): Kek[] {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('no key-encryption key given');
  return entries.map((entry, i) => {
    const secret = Buffer.from(entry.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (secret.length < MIN_SECRET_BYTES || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(entry)) {
      throw new Error(`key-encryption key ${i + 1} must be base64 of at least ${MIN_SECRET_BYTES} random bytes`);
    }
    const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'skiptrace auth signing-key encryption', 32));
    return { id: createHash('sha256').update(key).digest('hex').slice(0, 16), key };
  });
}

export const isEnvelope = (jwk: unknown): jwk is Envelope =>
  typeof jwk === 'object' && jwk !== null && (jwk as { enc?: unknown }).enc === 'A256GCM';

export function encryptJwk(kek: Kek, kid: string, jwk: JWK): Envelope {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek.key, iv);
  cipher.setAAD(Buffer.from(kid)); // binds the ciphertext to its row
  const ct = Buffer.concat([cipher.update(JSON.stringify(jwk), 'utf8'), cipher.final()]);
  return {
    enc: 'A256GCM',
    kek: kek.id,
    iv: iv.toString('base64url'),
    ct: ct.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
  };
}

export function decryptJwk(keks: Kek[], kid: string, envelope: Envelope): JWK {
  const kek = keks.find((k) => k.id === envelope.kek);
  if (!kek) {
    throw new Error(
      `signing key ${kid} is encrypted with key-encryption key ${envelope.kek}, which is not configured (AUTH_KEY_ENCRYPTION_KEYS)`,
    );
  }
  const decipher = createDecipheriv('aes-256-gcm', kek.key, Buffer.from(envelope.iv, 'base64url'));
  decipher.setAAD(Buffer.from(kid));
  decipher.setAuthTag(Buffer.from(envelope.tag, 'base64url'));
  const plain = Buffer.concat([decipher.update(Buffer.from(envelope.ct, 'base64url')), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as JWK;
}

/**
 * A KeyStore that encrypts what it adds and decrypts what it lists. Without KEKs it refuses
 * to start on encrypted keys (they would be unusable) rather than generate new ones.
 */
export function encryptedKeyStore(inner: KeyStore, keks: Kek[]): KeyStore & { rewrap(): Promise<number> } {
  const primary = keks[0];
  const open = (k: StoredKey): StoredKey => {
    if (!isEnvelope(k.jwk)) return k;
    if (keks.length === 0) {
      throw new Error(
        `signing key ${k.kid} is encrypted, but no key-encryption key is configured (AUTH_KEY_ENCRYPTION_KEYS)`,
      );
    }
    return { ...k, jwk: decryptJwk(keks, k.kid, k.jwk) };
  };
  const seal = (k: StoredKey): StoredKey =>
    primary ? { ...k, jwk: encryptJwk(primary, k.kid, k.jwk) as unknown as JWK } : k;
  return {
    async list() {
      return (await inner.list()).map(open);
    },
    async add(keys) {
      await inner.add(keys.map(seal));
    },
    async replace(keys) {
      await inner.replace(keys.map(seal));
    },
    /** Re-encrypts keys stored in plain text or under another KEK with the first KEK; returns how many. */
    async rewrap() {
      if (!primary) return 0;
      const stale = (await inner.list()).filter((k) => !isEnvelope(k.jwk) || k.jwk.kek !== primary.id);
      if (stale.length === 0) return 0;
      await inner.replace(stale.map(open).map(seal));
      return stale.length;
    },
  };
}
