import { describe, expect, it } from '@jest/globals';
import type { Message } from 'amqplib';
import { decodeReplies, packContent, PACK_CONTENT_TYPE, repliesPack } from '../src/rabbitmq-codec.ts';
import { encodeJson, jsonObject, jsonText, parseReply } from '../src/json-text.ts';

const response = {
  id: 7,
  status: 'completed',
  results: [{ first_name: 'Zoë', reasons: ['a\u2028b', '"quoted"'], confidence: 0.1 + 0.2, phones: [] }],
  truncated: false,
  error: undefined,
};

describe('JSON text', () => {
  it('writes an object with encoded members byte for byte as JSON.stringify writes it decoded', () => {
    const members = { accountId: 'acct_1', occurredAt: '2026-11-27T22:00:00.000Z', skipped: undefined, data: response };
    const encoded = jsonObject({ ...members, data: jsonText(response), fn: () => 1 });
    expect(encoded.text).toBe(JSON.stringify({ ...members, fn: () => 1 }));
    expect(jsonObject({}).text).toBe('{}');
    expect(encodeJson(encoded)).toBe(encoded.text);
    expect(encodeJson(undefined)).toBe('null');
  });

  it('rejects a reply that is not JSON', () => {
    expect(parseReply(Buffer.from('{"a":1}'))).toEqual({ a: 1 });
    expect(() => parseReply('{"a":')).toThrow(/undecodable reply/);
  });
});

describe('replies packs', () => {
  const message = (content: Buffer, headers?: Record<string, unknown>) =>
    ({ content, properties: { contentType: PACK_CONTENT_TYPE, headers }, fields: {} }) as unknown as Message;
  const replies = [
    { correlationId: 'c-1', body: JSON.stringify(response) },
    { correlationId: 'ç "2"', body: 'null' },
    { correlationId: 'c-3', body: JSON.stringify(['é', { n: 3 }]) },
  ];

  it('hands each reply on as the bytes it was encoded to, from where the pack says it lies', () => {
    const { content, properties } = repliesPack(replies);
    expect(JSON.parse(content.toString('utf8'))).toEqual(
      replies.map(({ correlationId, body }) => ({ correlationId, payload: JSON.parse(body) })),
    );
    const decoded = decodeReplies(message(content, properties.headers));
    expect(decoded.map(({ correlationId, json }) => ({ correlationId, body: json.toString('utf8') }))).toEqual(replies);
    expect(decoded[0]!.json.buffer).toBe(content.buffer);
  });

  it('decodes a pack whole when it does not say where its replies lie (an older consumer) or says it wrongly', () => {
    const { content } = repliesPack(replies);
    const whole = replies.map(({ correlationId, body }) => ({ correlationId, body }));
    for (const headers of [undefined, { 'x-skiptrace-replies': '[["c-1",1,99999]]' }, { 'x-skiptrace-replies': '[' }]) {
      const decoded = decodeReplies(message(content, headers));
      expect(decoded.map(({ correlationId, json }) => ({ correlationId, body: json.toString('utf8') }))).toEqual(whole);
    }
    expect(() => decodeReplies(message(packContent(['1']).subarray(0, 2)))).toThrow();
  });
});
