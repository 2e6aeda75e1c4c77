import { ApiError } from '@skiptrace/runtime';
import { FIELDS, normalizeName, type ColumnMap, type Field } from './column-rules.ts';

export {
  FIELDS,
  MAILING_FIELDS,
  normalizeName,
  resolveColumns,
  type ColumnMap,
  type Field,
  type Resolution,
} from './column-rules.ts';

/** Parses `?map=street_address:Address,zip_code:Zip` (field:column pairs, comma-separated). */
export function parseColumnMap(raw: unknown): ColumnMap {
  if (raw === undefined || raw === '') return {};
  if (typeof raw !== 'string') throw new ApiError('invalid_parameter', 'map must be given once');
  const map: ColumnMap = {};
  for (const pair of raw.split(',')) {
    const colon = pair.indexOf(':');
    const field = normalizeName(colon > 0 ? pair.slice(0, colon) : '');
    const column = colon > 0 ? pair.slice(colon + 1).trim() : '';
    if (!(FIELDS as readonly string[]).includes(field) || column === '') {
      throw new ApiError(
        'invalid_parameter',
        `map entries are field:column with field one of ${FIELDS.join(', ')}; got "${pair}"`,
      );
    }
    map[field as Field] = column;
  }
  return map;
}
