import { createMemoryKeyValue } from '@skiptrace/kv';
import { createDatabase } from '@skiptrace/storage';
import { describeOAuthFlows } from './oauth-flows.suite.ts';

// Embedded: PGlite (artefacts in the oidc_payloads table) and the in-memory key-value store.
describeOAuthFlows('PGlite + memory kv', async () => {
  const db = createDatabase({});
  const kv = createMemoryKeyValue();
  return {
    db,
    kv,
    emptyKv: () => createMemoryKeyValue(),
    cleanup: async () => void (await Promise.all([db.close(), kv.close()])),
  };
});
