import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CONSOLE_CLIENT_ID } from '@skiptrace/contracts';
import { createDatabase, type Database } from '@skiptrace/storage';
import { createAccounts, type Accounts } from '@skiptrace/accounts';
import { clientMetadata } from '../src/client-adapter.ts';
import { CONSOLE_ACCOUNT_ID, ensureConsoleClient } from '../src/console-client.ts';

let db: Database;
let accounts: Accounts;

beforeAll(async () => {
  db = createDatabase({});
  await db.migrate();
  accounts = createAccounts(db);
}, 60_000);
afterAll(() => db.close());

describe('the web console client', () => {
  it('is registered as a public PKCE client with its callback and signed-out URIs', async () => {
    await ensureConsoleClient(accounts, { consoleUrl: 'http://localhost:8080/console/' });
    const record = (await accounts.findClient(CONSOLE_CLIENT_ID))!;
    expect(record).toMatchObject({
      accountId: CONSOLE_ACCOUNT_ID,
      secretHash: null,
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: ['http://localhost:8080/console/callback'],
      scopes: 'read write admin',
    });
    expect(clientMetadata(record)).toMatchObject({
      token_endpoint_auth_method: 'none',
      post_logout_redirect_uris: ['http://localhost:8080/console/signed-out'],
    });
  });

  it('follows a changed public URL on the next start, and is idempotent', async () => {
    await ensureConsoleClient(accounts, { consoleUrl: 'https://skiptrace.example.com/console' });
    await ensureConsoleClient(accounts, { consoleUrl: 'https://skiptrace.example.com/console' });
    const record = (await accounts.findClient(CONSOLE_CLIENT_ID))!;
    expect(record.redirectUris).toEqual(['https://skiptrace.example.com/console/callback']);
    expect(record.metadata.post_logout_redirect_uris).toEqual(['https://skiptrace.example.com/console/signed-out']);
    const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM clients WHERE client_id = $1', [
      CONSOLE_CLIENT_ID,
    ]);
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it('gains the admin scope on the next start when registered before it existed', async () => {
    await db.query("UPDATE clients SET scopes = 'read write' WHERE client_id = $1", [CONSOLE_CLIENT_ID]);
    await ensureConsoleClient(accounts, { consoleUrl: 'https://skiptrace.example.com/console' });
    expect((await accounts.findClient(CONSOLE_CLIENT_ID))!.scopes).toBe('read write admin');
  });

  it('refuses to adopt a confidential client that holds the id', async () => {
    await accounts.createClient({ clientId: 'taken', name: 'Someone else', scopes: 'read' });
    await expect(
      ensureConsoleClient(accounts, { consoleUrl: 'http://localhost:8080/console', clientId: 'taken' }),
    ).rejects.toThrow('is not a public client');
  });
});
