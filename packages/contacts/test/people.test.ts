import { createPgliteDatabase } from '@skiptrace/storage';
import { peopleStoreContract } from './people.contract.ts';

peopleStoreContract('PGlite', async () => {
  const db = createPgliteDatabase();
  await db.migrate();
  return { db, dispose: () => db.close() };
});
