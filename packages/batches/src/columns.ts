import { ApiError } from '@skiptrace/runtime';
import { MAPPING_FIELDS, normalizeName, type ColumnMap, type Field } from './column-rules.ts';

export {
  FIELDS,
  MAILING_FIELDS,
  MAPPING_FIELDS,
  foldName,
  mappingWarnings,
  normalizeName,
  resolveColumns,
  type ColumnMap,
  type Field,
  type MappingWarning,
  type Resolution,
} from './column-rules.ts';

/**
 * Parses `?map=street_address=Address,zip_code=Zip` (field=column pairs, comma-separated; the
 * older `field:column` is read the same way). The CLI's `--map` is this syntax too.
 */
export function parseColumnMap(raw: unknown): ColumnMap {
  if (raw === undefined || raw === '') return {};
  if (typeof raw !== 'string') throw new ApiError('invalid_parameter', 'map must be given once');
  const map: ColumnMap = {};
  for (const pair of raw.split(',')) {
    const at = pair.search(/[=:]/);
    const field = normalizeName(at > 0 ? pair.slice(0, at) : '');
    const column = at > 0 ? pair.slice(at + 1).trim() : '';
    if (!(MAPPING_FIELDS as readonly string[]).includes(field) || column === '') {
      throw new ApiError(
        'invalid_parameter',
        `map entries are field=column with field one of ${MAPPING_FIELDS.join(', ')}; got "${pair}"`,
      );
    }
    map[field as Field] = column;
  }
  return map;
}
