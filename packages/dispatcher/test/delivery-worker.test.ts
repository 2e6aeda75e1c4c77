import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { silentLogger } from '@skiptrace/runtime';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import { waitUntil } from '@skiptrace/testing';
import type { AttemptWriter } from '@skiptrace/webhooks';
import { webhookConfig } from '@skiptrace/webhooks';
import { createDeliveryWorker } from '../src/delivery-worker.ts';
import { insertEndpoint } from '@skiptrace/webhooks';
import type { OutgoingWebhook } from '@skiptrace/webhooks';
import { fanOut } from '@skiptrace/webhooks';
import { scheduleMessage } from '@skiptrace/webhooks';
import { generateSecret } from '@skiptrace/webhooks';

/** The claim loop on its own: the store and the request are stand-ins the test holds. */
describe('delivery worker', () => {
  let db: Database;
  beforeAll(async () => {
    db = createPgliteDatabase();
    await db.migrate();
  }, 30_000);
  afterAll(() => db.close());

  async function messagesFor(account: string, endpoints: number, events: number) {
    for (let i = 0; i < endpoints; i++)
      await insertEndpoint(db, {
        accountId: account,
        url: `http://127.0.0.1:9/${account}/${i}`,
        events: null,
        description: null,
        secret: generateSecret(),
      });
    const now = new Date();
    const stored = await fanOut(
      db,
      Array.from({ length: events }, (_, i) => ({
        eventId: `${account}-${i}`,
        accountId: account,
        eventType: 'plant.added',
        payload: () => '{}',
        now,
      })),
    );
    return stored.flatMap((messages) => (messages instanceof Error ? [] : messages));
  }

  it("frees an endpoint's slot when the response is in, not when its outcome is written", async () => {
    const kv = createMemoryKeyValue();
    const config = webhookConfig({ allowPrivate: true, endpointConcurrency: 1, pollMs: 10 });
    const sent: string[] = [];
    const writes: (() => void)[] = [];
    // Outcome writes wait until the test lets them go.
    const record: AttemptWriter = () => new Promise<void>((resolve) => writes.push(resolve));
    const send = async (webhook: OutgoingWebhook) => {
      sent.push(webhook.headers['webhook-id']!);
      return { statusCode: 200, retryAfter: undefined, body: '' };
    };
    const worker = createDeliveryWorker({
      db,
      kv,
      config,
      clock: { now: Date.now },
      logger: silentLogger(),
      send,
      record,
    });
    for (const m of await messagesFor('acct_slot', 1, 3))
      await scheduleMessage(kv, config.scheduleName, m.id, m.endpoint_id, 0);
    worker.start();
    // One slot, and no outcome written yet: all three requests still go out one after another.
    await waitUntil(() => sent.length === 3);
    expect(new Set(sent).size).toBe(3);
    expect(writes).toHaveLength(3);
    writes.forEach((release) => release());
    await worker.stop();
    await expect(kv.scheduled(config.scheduleName)).resolves.toBe(0);
  });

  it("claims past a full endpoint's due backlog to reach the others, without putting it back", async () => {
    const store = createMemoryKeyValue();
    let putBack = 0;
    const kv = {
      ...store,
      schedule: (...args: Parameters<typeof store.schedule>) => (putBack++, store.schedule(...args)),
    };
    const config = webhookConfig({ allowPrivate: true, concurrency: 4, endpointConcurrency: 1, pollMs: 10 });
    const hanging: (() => void)[] = [];
    const sent = new Map<string, number>();
    const send = (webhook: OutgoingWebhook) => {
      sent.set(webhook.url, (sent.get(webhook.url) ?? 0) + 1);
      const ok = { statusCode: 200, retryAfter: undefined, body: '' };
      // The dead endpoint answers only when the test says so.
      if (webhook.url.endsWith('/acct_dead/0'))
        return new Promise<typeof ok>((resolve) => hanging.push(() => resolve(ok)));
      return Promise.resolve(ok);
    };
    const record: AttemptWriter = async () => undefined;
    const worker = createDeliveryWorker({
      db,
      kv,
      config,
      clock: { now: Date.now },
      logger: silentLogger(),
      send,
      record,
    });
    // 40 due members of the dead endpoint, all due before the live endpoint's 5.
    for (const m of await messagesFor('acct_dead', 1, 40))
      await scheduleMessage(kv, config.scheduleName, m.id, m.endpoint_id, 1);
    for (const m of await messagesFor('acct_live', 1, 5))
      await scheduleMessage(kv, config.scheduleName, m.id, m.endpoint_id, 2);
    putBack = 0;
    worker.start();
    await waitUntil(() => sent.get('http://127.0.0.1:9/acct_live/0') === 5);
    // The dead endpoint got its one slot and a short local queue; the rest of its backlog
    // stayed due where it was, neither sent nor claimed and moved back on the schedule.
    expect(sent.get('http://127.0.0.1:9/acct_dead/0')).toBe(1);
    expect(putBack).toBe(0);
    hanging.forEach((answer) => answer());
    await worker.stop({ abort: true });
  });
});
