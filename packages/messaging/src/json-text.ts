import { errorMessage } from './bus-logger.ts';

/**
 * A payload already encoded as JSON. The bus sends its text as it is, so a value that goes
 * out in several messages (the worker's reply and its `skiptrace.completed` event carry
 * the same response) is encoded once. `T` is the value it encodes, for the typed bus.
 */
export class JsonText<T = unknown> {
  /** Only for typing: the value the text encodes. */
  declare readonly value?: T;
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** The JSON text of `value`, as JSON.stringify writes it. */
export const jsonText = <T>(value: T): JsonText<T> => new JsonText(JSON.stringify(value));

/** What a member of jsonObject decodes to: a JsonText member is the value it encodes. */
type Decoded<M> = { [K in keyof M]: M[K] extends JsonText<infer V> ? V : M[K] };

/**
 * An object's JSON text, byte for byte what JSON.stringify writes for the object with each
 * JsonText member replaced by its value, without encoding those members again. Members
 * are written in order; an undefined one is left out, as JSON.stringify does.
 */
export function jsonObject<M extends Record<string, unknown>>(members: M): JsonText<Decoded<M>> {
  let text = '';
  for (const [key, value] of Object.entries(members)) {
    // JSON.stringify gives undefined for undefined, a function or a symbol: left out.
    const encoded: string | undefined = value instanceof JsonText ? value.text : JSON.stringify(value);
    if (encoded === undefined) continue;
    text += `${text === '' ? '{' : ','}${JSON.stringify(key)}:${encoded}`;
  }
  return new JsonText(text === '' ? '{}' : `${text}}`);
}

/** A payload's JSON text on the wire: a JsonText's own text, anything else encoded (undefined as null). */
export const encodeJson = (payload: unknown): string =>
  payload instanceof JsonText ? payload.text : JSON.stringify(payload ?? null);

/** A reply's value, from its JSON text; text that is not JSON fails the request. */
export function parseReply(json: Buffer | string): unknown {
  try {
    return JSON.parse(typeof json === 'string' ? json : json.toString('utf8'));
  } catch (err) {
    throw new Error(`undecodable reply: ${errorMessage(err)}`, { cause: err });
  }
}
