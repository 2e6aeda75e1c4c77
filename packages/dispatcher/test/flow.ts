import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { WebhookDelivery, WebhookEndpointWithSecret } from '@skiptrace/contracts';
import type { Harness } from './harness.ts';
import type { TestReceiver } from './receiver.ts';

/** Steps shared by the delivery tests, through the public API and the bus. */
export async function createEndpoint(
  h: Harness,
  account: string,
  receiver: TestReceiver,
  events?: string[],
): Promise<WebhookEndpointWithSecret> {
  const res = await request(h.app)
    .post('/api/v1/webhooks/endpoints')
    .set('x-test-account', account)
    .send({ url: receiver.url(), ...(events ? { events } : {}) });
  if (res.status !== 201) throw new Error(`create endpoint: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export const property = (id: number) => ({
  id,
  street_address: `${id} Main St`,
  city: 'Austin',
  state: 'TX',
  zip_code: '78701',
  first_name: 'Ada',
  last_name: 'Lovelace',
});

export async function publishPlantAdded(h: Harness, account: string, id: number, messageId = randomUUID()) {
  await h.bus.publish(
    'event.plant.added',
    { accountId: account, occurredAt: new Date().toISOString(), data: property(id) },
    { messageId },
  );
  return messageId;
}

export async function deliveries(h: Harness, account: string, endpointId: string): Promise<WebhookDelivery[]> {
  const res = await request(h.app)
    .get(`/api/v1/webhooks/endpoints/${endpointId}/deliveries`)
    .set('x-test-account', account);
  if (res.status !== 200) throw new Error(`deliveries: ${res.status}`);
  return res.body.data;
}

export async function endpointState(h: Harness, account: string, endpointId: string) {
  return (await request(h.app).get(`/api/v1/webhooks/endpoints/${endpointId}`).set('x-test-account', account)).body;
}

export async function deleteEndpoint(h: Harness, account: string, endpointId: string) {
  await request(h.app).delete(`/api/v1/webhooks/endpoints/${endpointId}`).set('x-test-account', account);
}
