import { createTestDatabaseUrl } from '@skiptrace/testing';
import { createPostgresDatabase } from '@skiptrace/storage';
import { contactStoreContract } from './contacts.contract.ts';

contactStoreContract('PostgreSQL', async () => {
  const database = await createTestDatabaseUrl('contacts');
  const db = createPostgresDatabase({ url: database.url });
  await db.migrate();
  return {
    db,
    async dispose() {
      await db.close();
      await database.drop();
    },
  };
});
