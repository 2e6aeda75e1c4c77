import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { waitUntil } from '@skiptrace/testing';
import { verifyWebhook } from '@skiptrace/webhook-verify';
import type { WebhookDelivery } from '@skiptrace/contracts';
import { createHarness, type Harness } from './harness.ts';
import { startReceiver, type TestReceiver } from './receiver.ts';
import { createEndpoint, deleteEndpoint, deliveries, endpointState, publishPlantAdded } from './flow.ts';

const S = 1000;
const H = 3_600_000;

/** Failure handling with a hand-moved clock: jitter is pinned to its midpoint (random = 0.5). */
describe('webhook delivery failures', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ timeoutMs: 500 }, { random: () => 0.5 });
    await h.dispatcher.start();
  }, 30_000);
  afterAll(() => h.close());

  async function setup(account: string, reply: Parameters<typeof startReceiver>[0]) {
    const receiver = await startReceiver(reply);
    const ep = await createEndpoint(h, account, receiver);
    return { receiver, ep };
  }
  const settled = (account: string, endpointId: string, n: number) =>
    waitUntil(async () => {
      const [d] = await deliveries(h, account, endpointId);
      return d && d.attempts.length === n ? (d as WebhookDelivery) : undefined;
    });
  /** Delay chosen after the last attempt: from its end (start + duration) to the next one. */
  const gap = (d: WebhookDelivery) => {
    const last = d.attempts.at(-1)!;
    const ms = Date.parse(d.next_attempt_at!) - Date.parse(last.attempted_at) - last.duration_ms;
    return Math.round(ms / 100) * 100; // attempt times are stored to the ms, durations rounded
  };
  async function cleanup(account: string, endpointId: string, receiver: TestReceiver) {
    await deleteEndpoint(h, account, endpointId);
    await receiver.close();
  }

  it('retries on the schedule with the same webhook-id until a 2xx', async () => {
    let calls = 0;
    const { receiver, ep } = await setup('acct_retry', () => ({ status: ++calls < 3 ? 500 : 204 }));
    await publishPlantAdded(h, 'acct_retry', 1);
    let d = await settled('acct_retry', ep.id, 1);
    expect(d).toMatchObject({ status: 'pending', attempt_count: 1 });
    expect(gap(d)).toBe(5 * S);
    h.clock.advance(4 * S);
    h.clock.advance(2 * S);
    d = await settled('acct_retry', ep.id, 2);
    expect(gap(d)).toBe(300 * S);
    h.clock.advance(301 * S);
    d = await settled('acct_retry', ep.id, 3);
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a) => a.status_code)).toEqual([500, 500, 204]);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids).toEqual(new Set([d.id]));
    // Each attempt is signed afresh with its own timestamp.
    const stamps = receiver.received.map((r) => Number(r.headers['webhook-timestamp']));
    expect(stamps[2]! - stamps[0]!).toBeGreaterThanOrEqual(306);
    for (const r of receiver.received) {
      const now = Number(r.headers['webhook-timestamp']) * 1000;
      expect(() => verifyWebhook(ep.secret, r.body, r.headers as Record<string, string>, { now })).not.toThrow();
    }
    await cleanup('acct_retry', ep.id, receiver);
  });

  it('honours Retry-After within [scheduled, 2 × scheduled], and waits a minute after 429', async () => {
    const { receiver, ep } = await setup('acct_ra', () => ({ status: 503, headers: { 'retry-after': '8' } }));
    await publishPlantAdded(h, 'acct_ra', 1);
    expect(gap(await settled('acct_ra', ep.id, 1))).toBe(8 * S);
    receiver.respond = () => ({ status: 503, headers: { 'retry-after': '86400' } });
    h.clock.advance(9 * S);
    expect(gap(await settled('acct_ra', ep.id, 2))).toBe(600 * S); // 2 × 5 min
    receiver.respond = () => ({ status: 429 });
    h.clock.advance(601 * S);
    expect(gap(await settled('acct_ra', ep.id, 3))).toBe(1800 * S);
    await cleanup('acct_ra', ep.id, receiver);

    const second = await setup('acct_429', () => ({ status: 429 }));
    await publishPlantAdded(h, 'acct_429', 1);
    expect(gap(await settled('acct_429', second.ep.id, 1))).toBe(60 * S);
    await cleanup('acct_429', second.ep.id, second.receiver);
  });

  it('disables the endpoint on 410 Gone', async () => {
    const { receiver, ep } = await setup('acct_gone', () => ({ status: 410 }));
    await publishPlantAdded(h, 'acct_gone', 1);
    const d = await settled('acct_gone', ep.id, 1);
    expect(d.status).toBe('failed');
    expect(await endpointState(h, 'acct_gone', ep.id)).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    await publishPlantAdded(h, 'acct_gone', 2);
    await publishPlantAdded(h, 'acct_gone', 3);
    expect(await deliveries(h, 'acct_gone', ep.id)).toHaveLength(1);
    await cleanup('acct_gone', ep.id, receiver);
  });

  it('does not follow redirects and counts them as failures', async () => {
    const { receiver, ep } = await setup('acct_redir', (req) =>
      req.path === '/plant/webhook' ? { status: 302, headers: { location: '/elsewhere' } } : { status: 200 },
    );
    await publishPlantAdded(h, 'acct_redir', 1);
    const d = await settled('acct_redir', ep.id, 1);
    expect(d.status).toBe('pending');
    expect(d.attempts[0]).toMatchObject({ status_code: 302, error: 'redirects are not followed' });
    expect(receiver.received.map((r) => r.path)).toEqual(['/plant/webhook']);
    await cleanup('acct_redir', ep.id, receiver);
  });

  it('times out a silent receiver and backs off at least a minute', async () => {
    const { receiver, ep } = await setup('acct_timeout', () => ({ hang: true }));
    await publishPlantAdded(h, 'acct_timeout', 1);
    const d = await settled('acct_timeout', ep.id, 1);
    expect(d.attempts[0]).toMatchObject({ status_code: null, error: 'no response within 500 ms' });
    expect(d.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(450);
    expect(gap(d)).toBe(60 * S);
    await cleanup('acct_timeout', ep.id, receiver);
  });

  it('fails after the last attempt; recover re-sends with the same webhook-id', async () => {
    const { receiver, ep } = await setup('acct_exhaust', () => ({ status: 500, body: 'x'.repeat(5000) }));
    await publishPlantAdded(h, 'acct_exhaust', 1);
    for (let n = 1; n <= 8; n++) {
      const d = await settled('acct_exhaust', ep.id, n);
      if (n < 8) h.clock.advance(gap(d) + S);
    }
    const [failed] = await deliveries(h, 'acct_exhaust', ep.id);
    expect(failed).toMatchObject({ status: 'failed', attempt_count: 8, next_attempt_at: null });
    expect(failed!.attempts[0]!.response_body).toHaveLength(2048);
    receiver.respond = () => ({ status: 200 });
    const since = new Date(h.clock.now() - 48 * H).toISOString();
    const res = await request(h.app)
      .post(`/api/v1/webhooks/endpoints/${ep.id}/recover?since=${encodeURIComponent(since)}`)
      .set('x-test-account', 'acct_exhaust');
    expect(res.body).toEqual({ recovered: 1 });
    const d = await settled('acct_exhaust', ep.id, 9);
    expect(d.status).toBe('delivered');
    expect(d.attempts[8]).toMatchObject({ trigger: 'manual', status_code: 200 });
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([d.id]));
    await cleanup('acct_exhaust', ep.id, receiver);
  });

  it('disables an endpoint that has failed continuously for 5 days; a success resets the clock', async () => {
    const { receiver, ep } = await setup('acct_dead', () => ({ status: 500 }));
    await publishPlantAdded(h, 'acct_dead', 1);
    await settled('acct_dead', ep.id, 1);
    const failingSince = (await endpointState(h, 'acct_dead', ep.id)).failing_since;
    expect(failingSince).not.toBeNull();
    // The row's version: a failure of an endpoint already failing (and not yet due to be
    // disabled) leaves the row as it is, without writing it again.
    const version = async () =>
      (await h.db.query<{ xmin: string }>('SELECT xmin::text FROM webhook_endpoints WHERE id = $1', [ep.id])).rows[0]!
        .xmin;
    const before = await version();
    h.clock.advance(119 * H);
    await publishPlantAdded(h, 'acct_dead', 2);
    await waitUntil(async () => {
      const list = await deliveries(h, 'acct_dead', ep.id);
      return list.length === 2 && list[0]!.attempts.length > 0; // newest first
    });
    expect(await endpointState(h, 'acct_dead', ep.id)).toMatchObject({ enabled: true, failing_since: failingSince });
    expect(await version()).toBe(before);
    h.clock.advance(2 * H);
    await publishPlantAdded(h, 'acct_dead', 3);
    await waitUntil(async () => (await endpointState(h, 'acct_dead', ep.id)).enabled === false);
    expect(await endpointState(h, 'acct_dead', ep.id)).toMatchObject({ disabled_reason: 'failing' });
    await waitUntil(async () => (await deliveries(h, 'acct_dead', ep.id)).every((d) => d.status === 'failed'));

    await request(h.app)
      .patch(`/api/v1/webhooks/endpoints/${ep.id}`)
      .set('x-test-account', 'acct_dead')
      .send({ enabled: true });
    expect(await endpointState(h, 'acct_dead', ep.id)).toMatchObject({ enabled: true, failing_since: null });
    receiver.respond = () => ({ status: 200 });
    await publishPlantAdded(h, 'acct_dead', 4);
    await waitUntil(() => receiver.received.some((r) => JSON.parse(r.body).id === 4));
    await cleanup('acct_dead', ep.id, receiver);
  });
});
