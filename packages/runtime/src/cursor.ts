import { Int64String } from '@skiptrace/contracts';
import { ApiError } from './api-error.ts';

/**
 * Opaque keyset cursors: `<kind>:<last id>` in base64url, so a cursor of one listing
 * (kind `id` for properties, `batch` for batches) is refused by another.
 */
export function encodeCursor(kind: string, id: string | number | bigint): string {
  return Buffer.from(`${kind}:${id}`).toString('base64url');
}

/** The last id a cursor of `kind` carries; invalid_parameter otherwise. */
export function decodeCursor(kind: string, cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString();
  const id = decoded.startsWith(`${kind}:`) ? Int64String.safeParse(decoded.slice(kind.length + 1)) : undefined;
  if (!id?.success) throw new ApiError('invalid_parameter', 'cursor is not valid');
  return id.data;
}
