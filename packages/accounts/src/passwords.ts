/**
 * Password and client-secret hashing with scrypt (node:crypto), a per-hash random salt and
 * a constant-time comparison. Stored form: `scrypt$N$r$p$<salt b64url>$<hash b64url>`, so
 * the cost can be raised later without invalidating existing hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, createHash } from 'node:crypto';

/** CPU/memory cost 2^14, block size 8, parallelism 1: about 16 MiB and ~40 ms per hash. */
const N = 16_384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function scryptAsync(secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, { N: n, r, p, maxmem: 128 * n * r * 2 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when secret matches stored; false for a malformed stored value. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![n, r, p].every((v) => Number.isInteger(v) && v > 0)) return false;
  const expected = Buffer.from(parts[5]!, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(parts[4]!, 'base64url'), n, r, p);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

let dummy: Promise<string> | undefined;
/** A real hash of a random secret: verifying against it costs what a real check costs. */
export function dummyHash(): Promise<string> {
  dummy ??= hashSecret(randomBytes(16).toString('hex'));
  return dummy;
}

/** Generates a random secret for clients and demo users: 32 bytes, base64url. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Remembers successful secret verifications (sha-256 of stored hash + secret) so a client
 * that authenticates on every token request pays scrypt once per process, not per call.
 * Bounded: the oldest entry is dropped past `max`.
 */
export function createVerifyCache(max = 1_000) {
  const seen = new Set<string>();
  const keyOf = (secret: string, stored: string) =>
    createHash('sha256').update(stored).update('\0').update(secret).digest('base64url');
  return {
    /** Whether this secret was verified against this hash before (no scrypt, no comparison). */
    known: (secret: string, stored: string): boolean => seen.has(keyOf(secret, stored)),
    async verify(secret: string, stored: string): Promise<boolean> {
      const key = keyOf(secret, stored);
      if (seen.has(key)) return true;
      const ok = await verifySecret(secret, stored);
      if (ok) {
        seen.add(key);
        if (seen.size > max) seen.delete(seen.values().next().value!);
      }
      return ok;
    },
  };
}
