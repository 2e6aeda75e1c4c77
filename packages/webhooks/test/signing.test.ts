import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { activeSecrets, generateSecret, sign, signatureHeader } from '../src/signing.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('signing', () => {
  it('reproduces the published Standard Webhooks test vector', () => {
    expect(sign(SECRET, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('generates whsec_ secrets of 32 random bytes that standardwebhooks accepts', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
    const ts = Math.floor(Date.now() / 1000);
    const body = '{"a":1}';
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(ts),
      'webhook-signature': sign(secret, 'msg_1', ts, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual({ a: 1 });
  });

  it('signs with the previous secret only while its overlap lasts', () => {
    const s = { secret: 'whsec_bmV3', previousSecret: 'whsec_b2xk', previousSecretExpiresAt: new Date(10_000) };
    expect(activeSecrets(s, 9_999)).toEqual(['whsec_bmV3', 'whsec_b2xk']);
    expect(activeSecrets(s, 10_000)).toEqual(['whsec_bmV3']);
    expect(signatureHeader(activeSecrets(s, 0), 'm', 1, 'b').split(' ')).toHaveLength(2);
  });
});
