/**
 * Where each oidc-provider artefact is stored (#22 item 6). What must outlive a restart of
 * Redis — sessions, grants, refresh tokens, authorization codes and every other artefact
 * issued under a grant — lives in the database (PostgreSQL, or PGlite in the one-process
 * mode: the same oidc_payloads table, the same migrations). Redis holds only what may be
 * lost: a sign-in in progress (Interaction, 1 h) and a pushed authorization request (60 s);
 * losing them costs a user one more sign-in, never a grant.
 * Codes sit beside their grant's refresh tokens on purpose: a reused code revokes the grant
 * and everything issued under it inside one store, atomically (oidc-adapter-db.ts).
 * Without Redis (the memory kv, one process) everything goes to the database.
 */
import type { KeyValueStore } from '@skiptrace/kv';
import type { Database } from '@skiptrace/storage';
import type { Adapter } from 'oidc-provider';
import { createDbAdapter } from './oidc-adapter-db.ts';
import { createKvAdapter } from './oidc-adapter-kv.ts';

/** Models whose artefacts may be lost with Redis. Everything else is durable. */
export const LOSSABLE_MODELS: ReadonlySet<string> = new Set(['Interaction', 'PushedAuthorizationRequest']);

/** The storage adapter for each oidc-provider model name. */
export function artefactAdapters(db: Database, kv: KeyValueStore): (name: string) => Adapter {
  const redis = kv.kind === 'redis';
  return (name) => (redis && LOSSABLE_MODELS.has(name) ? createKvAdapter(kv, name) : createDbAdapter(db, name));
}
