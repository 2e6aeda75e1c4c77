import { Writable } from 'node:stream';

/** A stderr that keeps what is written. */
export function capture(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}
