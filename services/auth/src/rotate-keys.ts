// Signing-key rotation: `node services/auth/src/rotate-keys.ts [--activate-in SECONDS]`.
// Adds a new ES256 + RS256 pair to the key store the auth service uses (the database with
// DATABASE_URL, else <SKIPTRACE_DATA_DIR>/keys.json), published at once and signing from
// now + SECONDS (default 0). Old keys stay in the JWKS. Restart or roll the auth service
// after rotating (and again once SECONDS have passed) so it loads the new set. With
// AUTH_KEY_ENCRYPTION_KEYS (or _FILE) set, as for the service, the new keys are stored encrypted.
import { parseArgs } from 'node:util';
import { loadConfig } from '@skiptrace/runtime';
import { z } from 'zod';
import { withAuthDatabase } from '@skiptrace/accounts';
import { dataDirFrom } from '@skiptrace/storage';
import { databaseKeyStore, encryptedKeyStore, fileKeyStore, parseKeks, rotateSigningKey } from '@skiptrace/auth';

const { values } = parseArgs({ options: { 'activate-in': { type: 'string', default: '0' } } });
const activateIn = Number(values['activate-in']);
if (!Number.isInteger(activateIn) || activateIn < 0) {
  process.stderr.write('--activate-in must be a whole number of seconds\n');
  process.exit(2);
}
const { AUTH_KEY_ENCRYPTION_KEYS: kekList } = loadConfig(z.object({ AUTH_KEY_ENCRYPTION_KEYS: z.string().optional() }));
const keks = kekList ? parseKeks(kekList) : [];
const added = await withAuthDatabase(async (_accounts, db) => {
  const inner = db.kind === 'postgres' ? databaseKeyStore(db) : fileKeyStore(dataDirFrom(process.env));
  return rotateSigningKey(encryptedKeyStore(inner, keks), activateIn);
});
process.stdout.write(
  `${JSON.stringify({ added: added.map((k) => ({ kid: k.kid, alg: k.jwk.alg, activateAt: new Date(k.activateAt).toISOString() })) }, null, 2)}\n`,
);
