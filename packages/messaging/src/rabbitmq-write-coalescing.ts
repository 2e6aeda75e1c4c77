import type { ChannelModel } from 'amqplib';

interface MuxLike {
  out?: { cork?: () => void; uncork?: () => void };
  _readIncoming?: () => void;
}

/**
 * amqplib's multiplexer moves frames from every channel to the socket with one `write()` per
 * frame, and on loopback each write is a system call that also runs the receiving side of
 * TCP: under load that was the largest single cost of the process (measured with
 * `--cpu-prof`: a publish is 2–3 frames, an ack 1). Corking the socket for one pass of the
 * multiplexer hands the kernel everything that pass wrote in a single `writev`. Frame order
 * and back-pressure are unchanged: `write()` still reports a full buffer while corked.
 *
 * Reaches into amqplib internals (`connection.muxer`); returns false, changing nothing,
 * when they are not there.
 */
export function coalesceFrameWrites(model: ChannelModel): boolean {
  const muxer = (model as unknown as { connection?: { muxer?: MuxLike } }).connection?.muxer;
  const pass = muxer?._readIncoming;
  const out = muxer?.out;
  if (!muxer || typeof pass !== 'function' || typeof out?.cork !== 'function' || typeof out.uncork !== 'function') {
    return false;
  }
  muxer._readIncoming = function corkedPass(this: MuxLike) {
    out.cork!();
    try {
      pass.call(this);
    } finally {
      out.uncork!();
    }
  };
  return true;
}
