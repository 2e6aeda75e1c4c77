import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PropertyResponse } from '@skiptrace/contracts';
import { waitUntil } from '@skiptrace/testing';
import express from 'express';
import request from 'supertest';
import { sendJobReply } from '../src/reply.ts';
import { createHarness, type Harness } from './harness.ts';

const response = {
  id: 7,
  status: 'completed',
  results: [{ first_name: 'Zoë', last_name: 'O’Neil', confidence: 0.1 + 0.2, reasons: ['a\u2028b', '"q"'] }],
  truncated: false,
  property: { street_address: '1 Match St', city: 'Española', state: 'NM', zip_code: '87532' },
  created_at: '2026-11-27T22:00:00.000Z',
};

/** Answers `reply` the way the gateway used to (decoded, then res.json) and the way it does now. */
function app(reply: string) {
  const a = express();
  a.set('etag', false);
  a.get('/decoded', (_req, res) => void res.json(JSON.parse(reply)));
  a.get('/as-sent', (_req, res) => {
    try {
      sendJobReply(res, Buffer.from(reply), 7);
    } catch (err) {
      res.status(502).send((err as Error).name);
    }
  });
  return a;
}

const answer = async (reply: string, path: string) => {
  const res = await request(app(reply))
    .get(path)
    .buffer(true)
    .parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
  const { date: _date, ...headers } = res.headers;
  return { status: res.status, headers, body: res.body as Buffer };
};

describe('the worker reply, as the gateway sends it', () => {
  it.each([
    ['the response of this property', JSON.stringify(response)],
    ['another property’s response', JSON.stringify({ ...response, id: 8 })],
    ['null (the property was erased meanwhile)', 'null'],
  ])('is what decoding it and res.json wrote, byte for byte and header for header: %s', async (_case, reply) => {
    const decoded = await answer(reply, '/decoded');
    expect(decoded.status).toBe(200);
    expect(await answer(reply, '/as-sent')).toEqual(decoded);
  });

  it('throws for a reply that is not JSON', async () => {
    expect((await answer('{"id":7,"status":', '/as-sent')).body.toString()).toBe('SyntaxError');
  });
});

describe('POST /property/skiptrace through the worker', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers the bytes res.json writes for the response the worker sent in its event', async () => {
    const completed: unknown[] = [];
    await h.bus.consume('webhooks.events', { prefetch: 10 }, async (d) => {
      if (d.topic === 'event.skiptrace.completed') completed.push(d.payload.data);
    });
    const res = await request(h.app)
      .post('/api/v1/property/skiptrace')
      .set('Authorization', 'Bearer acct-bytes:read,write')
      .send({ ...response.property, first_name: 'Jane', last_name: 'Roe' })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(PropertyResponse.safeParse(JSON.parse(res.text)).success).toBe(true);
    await waitUntil(() => completed.length === 1, { message: 'the completed event' });
    expect(res.text).toBe(JSON.stringify(completed[0]));
    expect(res.text).toContain('Española');
  });
});
