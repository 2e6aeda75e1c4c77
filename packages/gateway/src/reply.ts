import type { Response } from 'express';

const CLOSE_BRACE = 0x7d;

/**
 * Answers with the worker's reply to a skip-trace job. The reply is the response's JSON
 * text as the worker encoded it (JSON.stringify of core's toResponse), and it is written
 * as it came: the same bytes and headers res.json would write for it decoded, without
 * decoding it and encoding it again. The gateway checks only the envelope, that it is the
 * response of property `id` (an object that opens with that id; the worker writes `id`
 * first); the worker is typed against the contract's PropertyResponse. Any other reply
 * (`null` for a property erased meanwhile) is decoded and sent with res.json, as it always
 * was; text that is not JSON throws.
 */
export function sendJobReply(res: Response, reply: Buffer, id: number): void {
  const head = `{"id":${id},`;
  if (
    reply.length > head.length &&
    reply[reply.length - 1] === CLOSE_BRACE &&
    reply.toString('latin1', 0, head.length) === head
  ) {
    // res.json's Content-Type; res.send then adds Content-Length as for its text.
    res.set('Content-Type', 'application/json; charset=utf-8');
    res.send(reply);
    return;
  }
  res.json(JSON.parse(reply.toString('utf8')));
}
