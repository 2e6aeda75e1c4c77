import { join } from 'node:path';
import type { AuthService } from '@skiptrace/auth';
import { countContacts, countPropertyRecords, importContacts, importSuppression } from '@skiptrace/contacts';
import { demoQueryFor, demoSuppressionLists, generateContacts } from '@skiptrace/demo';
import type { Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { StandaloneConfig } from './config.ts';
import { writeDemoBatch } from './demo-batch.ts';
import { DEMO_OWNER_SOURCE, demoOwnerExample, demoOwnerWorld, loadDemoOwners } from './demo-owners.ts';

const DEMO_SEED = 42;

/**
 * First start of a fresh data directory: generates synthetic contacts (fictional
 * 555-01XX phones), an owner world (people who moved over twenty years and a county roll of
 * their parcels: absentee landlords, owners who moved out, trusts, estates, companies —
 * demo-owners.ts), the demo's Do-Not-Call and litigator lists (a small share of those phones,
 * so traces and exports show both flags) and the demo account, client and user, then prints
 * how to use them. Later starts find them in place and only print the instructions again.
 */
export async function loadDemoData(deps: {
  db: Database;
  auth: AuthService;
  config: StandaloneConfig;
  logger: Logger;
}) {
  const { db, auth, config, logger } = deps;
  const { env } = config;
  if (config.demoRows > 0 && (await countContacts(db, 'demo')) === 0) {
    async function* ndjson() {
      for (const row of generateContacts({ rows: config.demoRows, seed: DEMO_SEED })) {
        yield `${JSON.stringify(row)}\n`;
      }
    }
    const counts = await importContacts(db, ndjson(), { format: 'ndjson', source: 'demo' });
    logger.info(counts, 'demo contacts loaded');
  }
  const owners = config.demoRows > 0 ? demoOwnerWorld(config.demoRows) : null;
  if (owners !== null) {
    if ((await countPropertyRecords(db, DEMO_OWNER_SOURCE)) === 0) {
      const counts = await loadDemoOwners(db, owners);
      logger.info(counts, 'demo owner world loaded (people with address history, property records)');
    }
  }
  if (config.demoRows > 0) await loadDemoSuppression(db, logger);
  const absentee = owners === null ? null : demoOwnerExample(owners);
  const demoBatch = join(env.SKIPTRACE_DATA_DIR, 'demo-batch.csv');
  if (config.demoRows > 0) {
    await writeDemoBatch(demoBatch, {
      contacts: config.demoRows,
      seed: DEMO_SEED,
      rows: Math.min(1000, config.demoRows),
    });
  }
  const demo = await auth.ensureDemo({ dataDir: env.SKIPTRACE_DATA_DIR, redirectUri: `${config.baseUrl}/callback` });
  const [first] = generateContacts({ rows: 1, seed: DEMO_SEED });
  const query = first ? demoQueryFor(first) : undefined;
  const base = config.baseUrl;
  process.stdout.write(
    [
      '',
      'Skip-trace platform is starting with demo data.',
      `  Web console:    ${base}/console/   (sign in as the demo user below)`,
      `  API:            ${base}/api/v1   (reference: ${base}/api/v1/docs, OpenAPI: ${base}/api/v1/openapi.json)`,
      `  OAuth server:   ${base}/.well-known/openid-configuration`,
      `  demo client:    client_id=${demo.clientId} client_secret=${demo.clientSecret}`,
      `  demo user:      ${demo.email} / ${demo.password}`,
      ...(config.demoRows > 0
        ? [
            `  demo batch:     ${demoBatch}   (upload it on the console's Batches page)`,
            "  DNC, litigator: about 1 demo phone in 10 is on the demo's Do-Not-Call list, 1 in 100 on its litigator list (flagged in traces and exports)",
          ]
        : []),
      '',
      'Get a token:',
      `  TOKEN=$(curl -s ${base}/oauth/token -d grant_type=client_credentials -d client_id=${demo.clientId} \\`,
      `    -d client_secret=${demo.clientSecret} -d scope="read write" | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
      ...(absentee === null
        ? []
        : [
            '',
            `Trace a rental by its address alone: the owner of record (${absentee.ownerName}, living at ${absentee.mailing})`,
            'comes first, flagged owner, with their current phone; the tenants follow as residents:',
            `  curl -s ${base}/api/v1/property/skiptrace -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\`,
            `    -d '${JSON.stringify(absentee.property)}'`,
          ]),
      '',
      'Trace a person at their address (any spelling of it will match):',
      `  curl -s ${base}/api/v1/property/skiptrace -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\`,
      `    -d '${JSON.stringify(query ?? {})}'`,
      '',
    ].join('\n'),
  );
}

/**
 * The demo's suppression lists (@skiptrace/demo, suppression.ts): about 10 % of its fictional
 * numbers on the Do-Not-Call list, 1 % on the litigator list. Loaded on every start with demo
 * data — numbers already listed count as duplicates — so a data directory made before the lists
 * existed gets them too.
 */
async function loadDemoSuppression(db: Database, logger: Logger): Promise<void> {
  const lists = demoSuppressionLists();
  for (const kind of ['dnc', 'litigator'] as const) {
    const counts = await importSuppression(db, lists[kind].join('\n'), { kind });
    if (counts.imported > 0) logger.info({ kind, ...counts }, 'demo suppression list loaded');
  }
}
