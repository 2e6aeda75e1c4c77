import { createBus } from '@skiptrace/messaging';
import { createPgliteDatabase } from '@skiptrace/storage';
import { describeBatchContract } from './batches.contract.ts';

describeBatchContract('PGlite + in-process bus', async () => {
  const db = createPgliteDatabase({});
  await db.migrate();
  const bus = await createBus();
  return {
    db,
    bus,
    async close() {
      await bus.close();
      await db.close();
    },
  };
});
