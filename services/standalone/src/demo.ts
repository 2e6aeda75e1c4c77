import { join } from 'node:path';
import type { AuthService } from '@skiptrace/auth';
import { importContacts } from '@skiptrace/contacts';
import { demoQueryFor, generateContacts } from '@skiptrace/matching';
import type { Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { StandaloneConfig } from './config.ts';
import { writeDemoBatch } from './demo-batch.ts';

const DEMO_SEED = 42;

/**
 * First start of a fresh data directory: generates synthetic contacts (fictional
 * 555-01XX phones) and the demo account, client and user, then prints how to use them.
 * Later starts find both in place and only print the instructions again.
 */
export async function loadDemoData(deps: {
  db: Database;
  auth: AuthService;
  config: StandaloneConfig;
  logger: Logger;
}) {
  const { db, auth, config, logger } = deps;
  const { env } = config;
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM contacts WHERE source = 'demo'`);
  if (config.demoRows > 0 && Number(rows[0]?.n ?? 0) === 0) {
    async function* ndjson() {
      for (const row of generateContacts({ rows: config.demoRows, seed: DEMO_SEED })) {
        yield `${JSON.stringify(row)}\n`;
      }
    }
    const counts = await importContacts(db, ndjson(), { format: 'ndjson', source: 'demo' });
    logger.info(counts, 'demo contacts loaded');
  }
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
      ...(config.demoRows > 0 ? [`  demo batch:     ${demoBatch}   (upload it on the console's Batches page)`] : []),
      '',
      'Get a token and trace an address that will match:',
      `  TOKEN=$(curl -s ${base}/oauth/token -d grant_type=client_credentials -d client_id=${demo.clientId} \\`,
      `    -d client_secret=${demo.clientSecret} -d scope="read write" | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
      `  curl -s ${base}/api/v1/property/skiptrace -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\`,
      `    -d '${JSON.stringify(query ?? {})}'`,
      '',
    ].join('\n'),
  );
}
