import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks symmetric signatures: HMAC-SHA256 over `${id}.${timestamp}.${body}`
 * with the base64-decoded secret, written `v1,<base64>`. During a rotation overlap the
 * header carries one signature per valid secret, space-separated.
 */
export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes; the spec asks for 24–64. */
const SECRET_BYTES = 32;

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

export function sign(secret: string, msgId: string, timestampSec: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${msgId}.${timestampSec}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface SigningSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** Secrets that sign a delivery made at nowMs: the current one, plus the previous during its overlap. */
export function activeSecrets(s: SigningSecrets, nowMs: number): string[] {
  const previousValid = s.previousSecret && s.previousSecretExpiresAt && s.previousSecretExpiresAt.getTime() > nowMs;
  return previousValid ? [s.secret, s.previousSecret!] : [s.secret];
}

export function signatureHeader(secrets: string[], msgId: string, timestampSec: number, body: string): string {
  return secrets.map((secret) => sign(secret, msgId, timestampSec, body)).join(' ');
}

/** Random id without dots (the spec forbids them in webhook-id). */
export function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}
