/**
 * @skiptrace/contacts: the contact store the worker searches (findCandidates) and the
 * operator's bulk loaders (importContacts, importSuppression). Tables: migrations
 * 020_contacts.sql (contacts, suppression) and 021_contacts_cheaper_indexes.sql, 022_contacts_blocking.sql. Formats: docs/contact-data.md.
 */
export { countContacts, importContacts } from './import-contacts.ts';
export type { ContactFormat, ImportContactsOptions, ImportCounts } from './import-contacts.ts';
export { countPropertyRecords, importProperties } from './import-properties.ts';
export type { ImportPropertiesOptions } from './import-properties.ts';
export { seenEndDay, seenStartDay } from './seen-dates.ts';
export { importSuppression } from './import-suppression.ts';
export type { ImportSuppressionOptions, SuppressionKind } from './import-suppression.ts';
export {
  CANDIDATE_LIMITS,
  findCandidates,
  loadContactDetails,
  storedDetailsOf,
  suppressedNumbers,
} from './find-candidates.ts';
export { findPropertyRecords, loadPeople, MAX_ROWS_PER_PERSON } from './find-people.ts';
export type { People, PersonRow, PropertyRecordRow, Suppressed } from './find-people.ts';
export type {
  CandidateBlocks,
  CandidateLimits,
  CandidateQuery,
  ContactCandidate,
  ContactDetails,
  StoredPhone,
} from './find-candidates.ts';
export { ImportFormatError, resolveColumns } from './columns.ts';
export type { ColumnLayout } from './columns.ts';
export type { ImportSource } from './text-chunks.ts';
