import { createMemoryKeyValue } from '@skiptrace/kv';
import { createDatabase } from '@skiptrace/storage';
import { createDbAdapter } from '../src/oidc-adapter-db.ts';
import { createKvAdapter } from '../src/oidc-adapter-kv.ts';
import { describeAdapterContract } from './oidc-adapter.contract.ts';

describeAdapterContract('memory kv', async () => {
  const kv = createMemoryKeyValue();
  return { adapter: (name) => createKvAdapter(kv, name), cleanup: () => kv.close() };
});

describeAdapterContract('PGlite', async () => {
  const db = createDatabase({});
  await db.migrate();
  return { adapter: (name) => createDbAdapter(db, name), cleanup: () => db.close() };
});
