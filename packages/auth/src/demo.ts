/**
 * Demo tenant for the one-process mode: an account, a confidential client with all three
 * grants and scopes "read write admin" (admin only through client_credentials: a consent
 * never grants it), and a user. Created once; the generated secrets are kept
 * in <dataDir>/demo-credentials.json (mode 0600) so later starts can print them again.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Accounts } from '@skiptrace/accounts';
import { randomSecret } from '@skiptrace/accounts';

export interface DemoCredentials {
  accountId: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  email: string;
  password: string;
  scopes: string;
}

export const DEMO_ACCOUNT_ID = 'acc_demo';
export const DEMO_CLIENT_ID = 'demo-client';
export const DEMO_EMAIL = 'demo@skiptrace.local';

export interface EnsureDemoOptions {
  /** Where demo-credentials.json is kept; absent: secrets live only in the returned value. */
  dataDir?: string;
  /** Default http://localhost:8080/callback. */
  redirectUri?: string;
}

async function readSaved(file: string | undefined): Promise<DemoCredentials | undefined> {
  if (!file) return undefined;
  try {
    return JSON.parse(await readFile(file, 'utf8')) as DemoCredentials;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Creates whatever part of the demo tenant is missing and returns its credentials, with
 * created = true when anything was created now. The credentials file is written before the
 * rows, so a start interrupted half-way finishes the job with the same secrets next time.
 */
export async function ensureDemo(
  accounts: Accounts,
  options: EnsureDemoOptions = {},
): Promise<DemoCredentials & { created: boolean }> {
  const file = options.dataDir && join(options.dataDir, 'demo-credentials.json');
  let credentials = await readSaved(file);
  const client = await accounts.findClient(DEMO_CLIENT_ID);
  if (client && !credentials) throw new Error('the demo client exists but no data directory holds its credentials');
  if (!credentials) {
    credentials = {
      accountId: DEMO_ACCOUNT_ID,
      clientId: DEMO_CLIENT_ID,
      clientSecret: randomSecret(),
      redirectUri: options.redirectUri ?? 'http://localhost:8080/callback',
      email: DEMO_EMAIL,
      password: randomSecret(12),
      scopes: 'read write admin',
    };
    if (options.dataDir && file) {
      await mkdir(options.dataDir, { recursive: true });
      await writeFile(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
    }
  }
  let created = false;
  if (!(await accounts.findAccount(DEMO_ACCOUNT_ID))) {
    await accounts.createAccount({ id: DEMO_ACCOUNT_ID, name: 'Demo account' });
    created = true;
  }
  if (!(await accounts.findUserByEmail(DEMO_EMAIL))) {
    // The demo account's one user is its owner (docs/oauth.md, roles).
    await accounts.createUser({
      email: DEMO_EMAIL,
      password: credentials.password,
      accountId: DEMO_ACCOUNT_ID,
      role: 'owner',
    });
    created = true;
  }
  if (!client) {
    await accounts.createClient({
      clientId: DEMO_CLIENT_ID,
      clientSecret: credentials.clientSecret,
      name: 'Demo client',
      accountId: DEMO_ACCOUNT_ID,
      grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
      redirectUris: [credentials.redirectUri],
      scopes: credentials.scopes,
    });
    created = true;
  }
  return { ...credentials, created };
}
