import { createTestDatabaseUrl } from '@skiptrace/testing';
import { createPostgresDatabase } from '@skiptrace/storage';
import { peopleStoreContract } from './people.contract.ts';

peopleStoreContract('PostgreSQL', async () => {
  const database = await createTestDatabaseUrl('people');
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
