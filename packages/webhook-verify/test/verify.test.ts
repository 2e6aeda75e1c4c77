import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../src/index.ts';

// The published Standard Webhooks / Svix test vector.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TS = '1614265330';
const BODY = '{"test": 2432232314}';
const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
const AT = Number(TS) * 1000;

const headers = (signature = SIGNATURE, ts = TS) => ({
  'webhook-id': ID,
  'webhook-timestamp': ts,
  'webhook-signature': signature,
});

describe('verifyWebhook', () => {
  it('accepts the published test vector and returns the parsed body', () => {
    expect(verifyWebhook(SECRET, BODY, headers(), { now: AT })).toEqual({ test: 2432232314 });
  });

  it('accepts a Headers object and any header case', () => {
    const h = new Headers(headers());
    expect(verifyWebhook(SECRET, BODY, h, { now: AT })).toEqual({ test: 2432232314 });
    const upper = { 'Webhook-Id': ID, 'Webhook-Timestamp': TS, 'Webhook-Signature': SIGNATURE };
    expect(verifyWebhook(SECRET, BODY, upper, { now: AT })).toEqual({ test: 2432232314 });
  });

  it('accepts when any of several signatures matches, and any of several secrets', () => {
    const other = 'v1,' + Buffer.alloc(32, 1).toString('base64');
    expect(verifyWebhook(SECRET, BODY, headers(`${other} v1a,xyz ${SIGNATURE}`), { now: AT })).toBeTruthy();
    const wrongSecret = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
    expect(verifyWebhook([wrongSecret, SECRET], BODY, headers(), { now: AT })).toBeTruthy();
  });

  it('rejects a changed body, a wrong secret and a foreign scheme', () => {
    expect(() => verifyWebhook(SECRET, '{"test": 2432232315}', headers(), { now: AT })).toThrow(
      WebhookVerificationError,
    );
    const wrongSecret = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
    expect(() => verifyWebhook(wrongSecret, BODY, headers(), { now: AT })).toThrow('no matching signature');
    expect(() => verifyWebhook(SECRET, BODY, headers(SIGNATURE.replace('v1,', 'v2,')), { now: AT })).toThrow(
      'no matching signature',
    );
  });

  it('enforces the timestamp tolerance both ways', () => {
    expect(() => verifyWebhook(SECRET, BODY, headers(), { now: AT + 301_000 })).toThrow('too old');
    expect(() => verifyWebhook(SECRET, BODY, headers(), { now: AT - 301_000 })).toThrow('too new');
    expect(verifyWebhook(SECRET, BODY, headers(), { now: AT + 3_600_000, toleranceSec: 3601 })).toBeTruthy();
  });

  it('rejects missing or malformed headers', () => {
    expect(() => verifyWebhook(SECRET, BODY, { 'webhook-id': ID }, { now: AT })).toThrow('missing webhook headers');
    expect(() => verifyWebhook(SECRET, BODY, headers(SIGNATURE, '16e8'), { now: AT })).toThrow(
      'invalid webhook-timestamp',
    );
  });

  it('agrees with the standardwebhooks library on fresh signatures', () => {
    const wh = new Webhook(SECRET);
    const now = new Date();
    const body = JSON.stringify({ street_address: '1 Main St', id: 7 });
    const signature = wh.sign('msg_abc', now, body);
    const h = headers(signature, String(Math.floor(now.getTime() / 1000)));
    h['webhook-id'] = 'msg_abc';
    expect(verifyWebhook(SECRET, body, h)).toEqual({ street_address: '1 Main St', id: 7 });
  });
});
