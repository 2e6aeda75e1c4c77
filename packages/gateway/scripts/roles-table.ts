/**
 * Prints the route × role table of docs/oauth.md, or with --write rewrites it between the
 * `<!-- roles-table:start -->` and `<!-- roles-table:end -->` markers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { rolesTable } from '@skiptrace/contracts';

const DOC = new URL('../../../docs/oauth.md', import.meta.url);
const START =
  '<!-- roles-table:start (generated from the routes: node packages/gateway/scripts/roles-table.ts --write) -->';
const END = '<!-- roles-table:end -->';

const table = rolesTable();
if (!process.argv.includes('--write')) {
  process.stdout.write(`${table}\n`);
} else {
  const doc = readFileSync(DOC, 'utf8');
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/oauth.md lacks the markers ${START} … ${END}`);
  writeFileSync(DOC, `${doc.slice(0, from + START.length)}\n\n${table}\n\n${doc.slice(to)}`);
  process.stdout.write('docs/oauth.md: roles table written\n');
}
