// What a Database contract suite runs on: one per adapter (database.contract.ts and the
// suites it composes take it; the adapters' test files provide it).
import type { Database } from '../src/database.port.ts';

export interface TestStore {
  /** A Database on this store; may be called several times. */
  open(migrationsDir?: string): Database;
  /** True when two open() calls reach the same data (false for in-memory PGlite). */
  shared: boolean;
  drop(): Promise<void>;
}

export interface DatabaseHarness {
  kind: Database['kind'];
  /** A new, empty store (a fresh database or PGlite instance). */
  createStore(): Promise<TestStore>;
}
