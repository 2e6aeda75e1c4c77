import { createPgliteDatabase } from '@skiptrace/storage';
import { contactStoreContract } from './contacts.contract.ts';

contactStoreContract('PGlite', async () => {
  const db = createPgliteDatabase();
  await db.migrate();
  return { db, dispose: () => db.close() };
});
