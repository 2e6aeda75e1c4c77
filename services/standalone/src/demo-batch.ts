/**
 * The demo batch file: properties of the demo contacts as a list vendor would export them
 * (vendor column names, noisy spellings, some rows without an owner name, a few addresses
 * nobody lives at), so the console's first upload maps its columns and matches most rows.
 */
import { writeFile } from 'node:fs/promises';
import { demoQueryFor, generateContacts } from '@skiptrace/demo';

export const DEMO_BATCH_HEADER = [
  'Property Address',
  'City',
  'ST',
  'Zip',
  'Owner First Name',
  'Owner Last Name',
] as const;

const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** Rows of the demo file: one in every `step` contacts, every eighth without a name, every tenth unknown. */
export function demoBatchRows(options: { contacts: number; seed: number; rows: number }): string[][] {
  const step = Math.max(1, Math.floor(options.contacts / options.rows));
  const out: string[][] = [];
  let i = 0;
  for (const contact of generateContacts({ rows: options.contacts, seed: options.seed })) {
    if (i++ % step !== 0 || out.length >= options.rows) continue;
    const q = demoQueryFor(contact);
    const n = out.length;
    if (n % 10 === 9) out.push([`${9000 + n} Nowhere Ridge Rd`, q.city, q.state, q.zip_code, '', '']);
    else if (n % 8 === 7) out.push([q.street_address, q.city, q.state, q.zip_code, '', '']);
    else out.push([q.street_address, q.city, q.state, q.zip_code, q.first_name, q.last_name]);
  }
  return out;
}

export async function writeDemoBatch(file: string, options: { contacts: number; seed: number; rows: number }) {
  const lines = [DEMO_BATCH_HEADER, ...demoBatchRows(options)].map((row) => row.map(cell).join(','));
  await writeFile(file, `${lines.join('\r\n')}\r\n`);
}
