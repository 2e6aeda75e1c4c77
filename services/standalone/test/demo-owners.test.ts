import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createContactTraceEngine } from '@skiptrace/core';
import { normalizePhone } from '@skiptrace/matching';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import {
  demoOwnerExample,
  demoOwnerPeople,
  demoOwnerWorld,
  loadDemoOwners,
  type DemoOwnerExample,
} from '../src/demo-owners.ts';

describe("the demo's owner world", () => {
  // The default start: SKIPTRACE_DEMO_ROWS 5000.
  const world = demoOwnerWorld(5000);
  let db: Database;
  beforeAll(async () => {
    db = createPgliteDatabase({});
    await db.migrate();
  });
  afterAll(async () => db?.close());

  it('is sized from the demo rows', () => {
    expect(demoOwnerPeople(5000)).toBe(2500);
    expect(demoOwnerPeople(100)).toBe(200);
    expect(demoOwnerPeople(1_000_000)).toBe(2500);
    expect(world.people).toHaveLength(2500);
  });

  it('loads, and the printed example traces a landlord living elsewhere: owner first, tenants as residents', async () => {
    const counts = await loadDemoOwners(db, world);
    expect(counts.people).toMatchObject({ read: 2500, rejected: 0 });
    expect(counts.properties).toMatchObject({ read: world.parcels.length, rejected: 0 });
    const example = demoOwnerExample(world) as DemoOwnerExample;
    expect(example).not.toBeNull();
    const index = world.parcels.findIndex(
      (p) => p.street_address === example.property.street_address && p.zip_code === example.property.zip_code,
    );
    const truth = world.truth.parcels[index]!;
    expect(truth.situation).toBe('absentee_landlord');

    const [outcome] = await createContactTraceEngine(db).traceMany([example.property]);
    expect(outcome!.status).toBe('completed');
    const [first, ...rest] = outcome!.results;
    expect(first!.owner).toBe(true);
    const owner = world.people.find((p) => truth.owners.includes(p.person_id) && p.first_name === first!.first_name)!;
    expect(owner).toBeDefined();
    expect(normalizePhone(first!.phones[0]!.number)).toBe(world.truth.people.get(owner.person_id)!.current_phone);
    const residents = rest.filter((r) => r.resident === true);
    expect(residents.length).toBeGreaterThan(0);
    expect(residents.every((r) => r.owner === false)).toBe(true);
    expect(outcome!.owners_of_record?.[0]?.as_recorded).toBe(example.ownerName);
  });
});
