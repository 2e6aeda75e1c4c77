import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { waitUntil } from '@skiptrace/testing';
import { verifyWebhook } from '@skiptrace/webhook-verify';
import { createFanout } from '../src/fanout.ts';
import { createHarness, type Harness } from './harness.ts';
import { startReceiver } from './receiver.ts';
import { createEndpoint, deleteEndpoint, deliveries, property, publishPlantAdded } from './flow.ts';

describe('webhook delivery', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ timeoutMs: 1000, concurrency: 4, endpointConcurrency: 2 });
    await h.dispatcher.start();
  }, 30_000);
  afterAll(() => h.close());

  it('delivers the event body itself, signed so that standardwebhooks verifies it', async () => {
    const receiver = await startReceiver();
    const ep = await createEndpoint(h, 'acct_sig', receiver, ['plant.added']);
    await publishPlantAdded(h, 'acct_sig', 41);
    await waitUntil(() => receiver.received.length === 1);
    const got = receiver.received[0]!;
    expect(got.path).toBe('/plant/webhook');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-event-type']).toBe('plant.added');
    expect(new Webhook(ep.secret).verify(got.body, got.headers as Record<string, string>)).toEqual(property(41));
    const [d] = await waitUntil(async () => {
      const list = await deliveries(h, 'acct_sig', ep.id);
      return list[0]?.status === 'delivered' ? list : undefined;
    });
    expect(d!.id).toBe(got.headers['webhook-id']);
    expect(d!.attempts).toEqual([expect.objectContaining({ status_code: 200, error: null, trigger: 'scheduled' })]);
    await deleteEndpoint(h, 'acct_sig', ep.id);
    await receiver.close();
  });

  it('stores one message per matching enabled endpoint, and nothing more on redelivery', async () => {
    const receiver = await startReceiver();
    const plant = await createEndpoint(h, 'acct_fan', receiver, ['plant.added']);
    const all = await createEndpoint(h, 'acct_fan', receiver);
    const other = await createEndpoint(h, 'acct_fan', receiver, ['skiptrace.completed']);
    await createEndpoint(h, 'acct_elsewhere', receiver);
    const handle = createFanout({ db: h.db, kv: h.kv, config: h.config, clock: h.clock });
    const event = { accountId: 'acct_fan', occurredAt: new Date().toISOString(), data: property(7) };
    const delivery = {
      topic: 'event.plant.added' as const,
      payload: event,
      messageId: 'evt-dup',
      headers: {},
      attempt: 1,
      reply: () => {},
    };
    expect(await handle(delivery)).toBe(2);
    await waitUntil(() => receiver.received.length === 2);
    expect(await handle({ ...delivery, attempt: 2 })).toBe(0);
    const { rows } = await h.db.query<{ endpoint_id: string }>(
      "SELECT endpoint_id FROM webhook_messages WHERE event_id = 'evt-dup' ORDER BY endpoint_id",
    );
    expect(rows.map((r) => r.endpoint_id).sort()).toEqual([plant.id, all.id].sort());
    // Events handled together (one batch): each is answered with its own fan-out.
    const together = await Promise.all([
      handle({ ...delivery, messageId: 'evt-b1' }),
      handle({ ...delivery, messageId: 'evt-b2', payload: { ...event, accountId: 'acct_elsewhere' } }),
      handle({ ...delivery, messageId: 'evt-b3', payload: { ...event, accountId: 'acct_nobody' } }),
      handle({ ...delivery, messageId: 'evt-b1' }),
    ]);
    expect(together).toEqual([2, 1, 0, 2]);
    for (const ep of [plant, all, other]) await deleteEndpoint(h, 'acct_fan', ep.id);
    await receiver.close();
  });

  it("validates an event's data only when someone subscribed to it, and sends what the schema keeps", async () => {
    const receiver = await startReceiver();
    const ep = await createEndpoint(h, 'acct_check', receiver, ['plant.added']);
    const handle = createFanout({ db: h.db, kv: h.kv, config: h.config, clock: h.clock });
    const delivery = (messageId: string, accountId: string, data: unknown) => ({
      topic: 'event.plant.added' as const,
      payload: { accountId, occurredAt: new Date().toISOString(), data } as never,
      messageId,
      headers: {},
      attempt: 1,
      reply: () => {},
    });
    // A subscriber: a malformed event fails (the bus retries, then dead-letters it), alone.
    const [bad, good] = await Promise.allSettled([
      handle(delivery('evt-bad', 'acct_check', { id: 'not a number' })),
      handle(delivery('evt-good', 'acct_check', { ...property(8), internal: 'not in the schema' })),
    ]);
    expect(bad).toMatchObject({ status: 'rejected', reason: { name: 'InvalidMessageError' } });
    expect(bad.status === 'rejected' && String(bad.reason.message)).toMatch(/^event\.plant\.added payload: /);
    expect(good).toEqual({ status: 'fulfilled', value: 1 });
    await waitUntil(() => receiver.received.length === 1);
    expect(JSON.parse(receiver.received[0]!.body)).toEqual(property(8));
    // Nobody subscribed: nothing is stored or sent, so the data is not read.
    expect(await handle(delivery('evt-unread', 'acct_nobody_here', { id: 'not a number' }))).toBe(0);
    await deleteEndpoint(h, 'acct_check', ep.id);
    await receiver.close();
  });

  it('replays with the same webhook-id, and sends test events', async () => {
    const receiver = await startReceiver();
    const ep = await createEndpoint(h, 'acct_replay', receiver);
    await publishPlantAdded(h, 'acct_replay', 5);
    await waitUntil(async () => (await deliveries(h, 'acct_replay', ep.id))[0]?.status === 'delivered');
    const [d] = await deliveries(h, 'acct_replay', ep.id);
    const replay = await request(h.app)
      .post(`/api/v1/webhooks/deliveries/${d!.id}/replay`)
      .set('x-test-account', 'acct_replay');
    expect(replay.status).toBe(202);
    await waitUntil(() => receiver.received.length === 2);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([d!.id, d!.id]);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    await waitUntil(async () => (await deliveries(h, 'acct_replay', ep.id))[0]?.attempts.length === 2);
    expect((await deliveries(h, 'acct_replay', ep.id))[0]!.attempts[1]).toMatchObject({
      trigger: 'manual',
      status_code: 200,
    });
    expect(
      (await request(h.app).post(`/api/v1/webhooks/deliveries/${d!.id}/replay`).set('x-test-account', 'acct_other'))
        .status,
    ).toBe(404);

    const test = await request(h.app)
      .post(`/api/v1/webhooks/endpoints/${ep.id}/test`)
      .set('x-test-account', 'acct_replay');
    expect(test.status).toBe(202);
    expect(test.body).toMatchObject({ event_type: 'webhook.test', status: 'pending' });
    await waitUntil(() => receiver.received.length === 3);
    const t = receiver.received[2]!;
    expect(t.headers['webhook-event-type']).toBe('webhook.test');
    expect(new Webhook(ep.secret).verify(t.body, t.headers as Record<string, string>)).toMatchObject({
      test: true,
      endpoint_id: ep.id,
    });
    await deleteEndpoint(h, 'acct_replay', ep.id);
    await receiver.close();
  });

  it('caps concurrency per endpoint, so a hanging endpoint does not delay a healthy one', async () => {
    const slow = await startReceiver(() => ({ hang: true }));
    const fast = await startReceiver();
    const slowEp = await createEndpoint(h, 'acct_slow', slow);
    const fastEp = await createEndpoint(h, 'acct_fast', fast);
    for (let i = 1; i <= 20; i++) await publishPlantAdded(h, 'acct_slow', i);
    for (let i = 1; i <= 20; i++) await publishPlantAdded(h, 'acct_fast', i);
    await waitUntil(() => fast.received.length === 20, { timeoutMs: 8000 });
    // Without the cap the slow endpoint would hold all 4 global slots for 20 / 4 waves of 1 s timeouts.
    expect(slow.received.length).toBeLessThan(10);
    expect(slow.maxActive()).toBeLessThanOrEqual(2);
    expect(slow.received.length).toBeGreaterThan(0);
    await deleteEndpoint(h, 'acct_slow', slowEp.id);
    await deleteEndpoint(h, 'acct_fast', fastEp.id);
    await fast.close();
    await slow.close();
  });

  // Last: it moves the shared clock a day forward.
  it('signs with both secrets during the 24 h rotation overlap, then with the new one only', async () => {
    const receiver = await startReceiver();
    const ep = await createEndpoint(h, 'acct_rot', receiver);
    const rotated = await request(h.app)
      .post(`/api/v1/webhooks/endpoints/${ep.id}/rotate-secret`)
      .set('x-test-account', 'acct_rot');
    const newSecret: string = rotated.body.secret;
    await publishPlantAdded(h, 'acct_rot', 1);
    await waitUntil(() => receiver.received.length === 1);
    const first = receiver.received[0]!;
    expect((first.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    for (const secret of [ep.secret, newSecret])
      expect(new Webhook(secret).verify(first.body, first.headers as Record<string, string>)).toEqual(property(1));

    h.clock.advance(24 * 3_600_000 + 1000);
    await publishPlantAdded(h, 'acct_rot', 2);
    await waitUntil(() => receiver.received.length === 2);
    const second = receiver.received[1]!;
    const now = h.clock.now();
    expect((second.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(verifyWebhook(newSecret, second.body, second.headers as Record<string, string>, { now })).toEqual(
      property(2),
    );
    expect(() => verifyWebhook(ep.secret, second.body, second.headers as Record<string, string>, { now })).toThrow(
      'no matching signature',
    );
    await deleteEndpoint(h, 'acct_rot', ep.id);
    await receiver.close();
  });
});
