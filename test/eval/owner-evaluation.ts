/**
 * The owner evaluation (#24 item 7): a generated owner world (@skiptrace/owners
 * generateOwnerWorld — people followed 2006–2026 through their moves, a roll written the way
 * counties write owners) imported through the production path (importContacts with the NDJSON
 * person form, importProperties with the canonical columns), then queried the way investor
 * lists hold properties — the address only; the owner split into first and last name; the
 * whole owner string in last_name; each with and without the roll's mailing address — through
 * the contact trace engine in batches, as the worker runs them.
 *
 * Graded per situation (owner-occupied, absentee landlord, moved out with the roll's mailing
 * address current / stale / a PO box, trusts, estates, companies, public bodies, owners the
 * people data lacks):
 * - owner recall: where an owner of record is in the people data (and tied to the parcel there:
 *   the property or the roll's mailing address among their addresses — ParcelTruth.tied; the
 *   few the data leaves untied are counted apart), a result flagged `owner: true` is one of them;
 * - owner precision: results flagged owner that are owners of record / all flagged owner;
 * - tenant-as-owner: results flagged owner who live or lived at the property and are neither owners
 *   nor the owners' family (a grown child or a late spouse flagged owner counts against precision,
 *   and is shown apart as family-as-owner);
 * - no-owner-correct: companies, public bodies, owners missing from the people data — nobody
 *   flagged owner;
 * - current-phone-first: for each owner found (alive, with a phone), phones[0] is their current
 *   phone (the one seen last, a mobile first among equally recent ones).
 *
 * A result is identified as a person of the world by its phone numbers and names (and its
 * addresses when the phones do not decide): results carry no person id.
 */
import type { Property, TraceResult } from '@skiptrace/contracts';
import { importContacts, importProperties } from '@skiptrace/contacts';
import { createContactTraceEngine, type TraceOutcome } from '@skiptrace/core';
import { foldAscii, normalizePhone } from '@skiptrace/matching';
import { mulberry32 } from '@skiptrace/demo';
import {
  generateOwnerWorld,
  OWNER_SITUATIONS,
  ownerWorldPeopleNdjson,
  ownerWorldPropertyCsv,
  type OwnerSituation,
  type OwnerWorld,
  type ParcelTruth,
} from '@skiptrace/demo';
import type { Database } from '@skiptrace/storage';

/** Kinds of failure, the worst first: a query's example is filed under its worst. */
export const FAILURE_KINDS = [
  'tenant-as-owner',
  'wrong-owner',
  'family-as-owner',
  'owner-missed',
  'phone-not-current',
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** How an investor's list holds the owner. */
export const QUERY_FORMS = ['address', 'split', 'whole'] as const;
export type QueryForm = (typeof QUERY_FORMS)[number];

/** Situations where nobody should be flagged owner: no owner of record is in the people data. */
export const NO_OWNER_SITUATIONS: readonly OwnerSituation[] = [
  'company',
  'government',
  'organization',
  'owner_missing',
];

export interface OwnerQuery {
  situation: OwnerSituation;
  form: QueryForm;
  withMailing: boolean;
  /** Index into world.parcels / world.truth.parcels. */
  parcel: number;
  property: Property;
}

export interface SituationStats {
  queries: number;
  /** Queries whose parcel has an owner of record in the people data, tied to it there (ParcelTruth.tied). */
  ownerInData: number;
  /** … of which a result flagged owner is a true owner. */
  ownerFound: number;
  /**
   * Queries whose owners are in the people data but not tied to the parcel there (the data
   * lacks the one address that would tie them): outside recall; nobody can be found on a name
   * and an address tie that does not exist.
   */
  untied: number;
  /** … where an owner was flagged all the same. */
  untiedFound: number;
  /** Results flagged owner. */
  flagged: number;
  /** … that are owners of record. */
  flaggedRight: number;
  /** Results flagged owner who live or lived at the property and are neither owners nor their family. */
  tenantAsOwner: number;
  /** Results flagged owner who are the owners' family (a partner, a grown child …), not owners of record. */
  familyAsOwner: number;
  /** Queries where no owner of record is in the people data. */
  noOwner: number;
  /** … answered with nobody flagged owner. */
  noOwnerRight: number;
  /** True owners found alive with a current phone. */
  phoneAsked: number;
  /** … whose phones[0] is that phone. */
  phoneFirst: number;
}

export interface OwnerReport {
  situations: Map<OwnerSituation, SituationStats>;
  forms: Map<string, SituationStats>;
  total: SituationStats;
  recall: number;
  precision: number;
  tenantAsOwner: number;
  noOwnerCorrect: number;
  currentPhoneFirst: number;
  /** What went wrong, by situation and kind of failure (at most `examples` each). */
  failures: Map<OwnerSituation, Map<FailureKind, string[]>>;
}

export interface OwnerEvaluationOptions {
  people: number;
  seed: number;
  /** Most queries per situation (parcels sampled without repetition); default all parcels. */
  perSituation?: number;
  /** Queries per traceMany call (as a batch chunk); default 250. */
  batch?: number;
  /** Failure examples kept per situation; default 5. */
  examples?: number;
  /** Called with the world once generated (the command prints its size). */
  onWorld?: (world: OwnerWorld) => void;
}

/** Queries over the world's parcels: `perSituation` of each situation, forms and mailing in rotation. */
export function ownerQueries(world: OwnerWorld, seed: number, perSituation = Infinity): OwnerQuery[] {
  const random = mulberry32(seed);
  const bySituation = new Map<OwnerSituation, number[]>();
  world.truth.parcels.forEach((t, i) => {
    const list = bySituation.get(t.situation) ?? [];
    list.push(i);
    bySituation.set(t.situation, list);
  });
  const queries: OwnerQuery[] = [];
  for (const situation of OWNER_SITUATIONS) {
    const all = [...(bySituation.get(situation) ?? [])];
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    const chosen = all.slice(0, Math.min(all.length, perSituation));
    // Rotation from a random start: every form with and without mailing, evenly.
    const start = Math.floor(random() * 6);
    chosen.forEach((parcel, n) => {
      const combo = (start + n) % 6;
      const form = QUERY_FORMS[combo % 3]!;
      const withMailing = combo >= 3;
      queries.push({ situation, form, withMailing, parcel, property: queryFor(world, parcel, form, withMailing) });
    });
  }
  return queries;
}

function queryFor(world: OwnerWorld, index: number, form: QueryForm, withMailing: boolean): Property {
  const p = world.parcels[index]!;
  const t = world.truth.parcels[index]!;
  const property: Property = {
    street_address: p.street_address,
    city: p.city,
    state: p.state,
    zip_code: p.zip_code,
  };
  if (form === 'split') {
    const owner = t.listOwners[0];
    if (owner !== undefined) {
      if (owner.first_name !== undefined) property.first_name = owner.first_name;
      property.last_name = owner.last_name;
    }
  } else if (form === 'whole' && p.owner_name !== '') property.last_name = p.owner_name;
  if (withMailing && p.mailing_street_address !== '')
    property.mailing_address = {
      street_address: p.mailing_street_address,
      city: p.mailing_city,
      state: p.mailing_state,
      zip_code: p.mailing_zip_code,
    };
  return property;
}

const emptyStats = (): SituationStats => ({
  queries: 0,
  ownerInData: 0,
  ownerFound: 0,
  untied: 0,
  untiedFound: 0,
  flagged: 0,
  flaggedRight: 0,
  tenantAsOwner: 0,
  familyAsOwner: 0,
  noOwner: 0,
  noOwnerRight: 0,
  phoneAsked: 0,
  phoneFirst: 0,
});

const nameKey = (text: string | undefined): string => foldAscii(text ?? '').replace(/[^A-Z]/g, '');
const streetKey = (text: string): string =>
  foldAscii(text)
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 12);

/** Identifies trace results as people of the world: by phones and names, then addresses. */
export class ResultIdentifier {
  private readonly byPhone = new Map<string, string[]>();
  private readonly byName = new Map<string, string[]>();
  private readonly streets = new Map<string, Set<string>>();
  private readonly phones = new Map<string, Set<string>>();
  private readonly world: OwnerWorld;

  constructor(world: OwnerWorld) {
    this.world = world;
    for (const person of world.people) {
      const truth = world.truth.people.get(person.person_id)!;
      this.phones.set(person.person_id, new Set(truth.phones));
      for (const phone of new Set(truth.phones)) {
        const list = this.byPhone.get(phone) ?? [];
        list.push(person.person_id);
        this.byPhone.set(phone, list);
      }
      const key = `${nameKey(person.first_name)}|${nameKey(person.last_name)}`;
      this.byName.set(key, [...(this.byName.get(key) ?? []), person.person_id]);
      this.streets.set(person.person_id, new Set(person.addresses.map((a) => streetKey(a.street_address))));
    }
  }

  /** The person id of a result, or null when no person of the world fits it. */
  identify(result: TraceResult): string | null {
    const numbers = result.phones.map((p) => normalizePhone(p.number) ?? p.number);
    const first = nameKey(result.first_name);
    const last = nameKey(result.last_name);
    const named = this.byName.get(`${first}|${last}`) ?? [];
    const byPhone = new Set(numbers.flatMap((n) => this.byPhone.get(n) ?? []));
    let candidates = named.filter((id) => byPhone.has(id));
    if (candidates.length === 0) candidates = numbers.length === 0 ? named : [];
    if (candidates.length === 0) {
      // The name as stored may differ in spacing or punctuation ("St. John", "Van Dyke"): phones decide.
      candidates = [...byPhone].filter((id) => {
        const person = this.world.truth.people.get(id)!;
        return nameKey(person.last_name) === last || nameKey(person.first_name) === first;
      });
    }
    if (candidates.length <= 1) return candidates[0] ?? null;
    const streets = new Set((result.addresses ?? []).map((a) => streetKey(a.street_address)));
    const score = (id: string): number =>
      numbers.filter((n) => this.phones.get(id)!.has(n)).length * 100 +
      [...streets].filter((s) => this.streets.get(id)!.has(s)).length;
    return candidates.sort((a, b) => score(b) - score(a) || (a < b ? -1 : 1))[0]!;
  }
}

/** Grades outcomes (in query order) against the world's truth. */
export function gradeOwners(
  world: OwnerWorld,
  queries: OwnerQuery[],
  outcomes: TraceOutcome[],
  examples = 5,
): OwnerReport {
  const identifier = new ResultIdentifier(world);
  const situations = new Map<OwnerSituation, SituationStats>();
  const forms = new Map<string, SituationStats>();
  const total = emptyStats();
  const failures = new Map<OwnerSituation, Map<FailureKind, string[]>>();
  const people = new Map(world.people.map((p) => [p.person_id, p]));
  const who = (id: string | null): string => {
    if (id === null) return 'someone not in the world';
    const p = people.get(id)!;
    const current = p.addresses[0];
    return `${id} ${p.first_name} ${p.last_name}${p.deceased === true ? ' (deceased)' : ''}${current === undefined ? '' : ` @ ${current.street_address}, ${current.city}`}`;
  };
  queries.forEach((query, i) => {
    const outcome = outcomes[i]!;
    const truth = world.truth.parcels[query.parcel]!;
    const form = `${query.form}${query.withMailing ? '+mailing' : ''}`;
    const stats = [situations, forms].map((map, k) => {
      const key = (k === 0 ? query.situation : form) as never;
      const s = (map as Map<string, SituationStats>).get(key) ?? emptyStats();
      (map as Map<string, SituationStats>).set(key, s);
      return s;
    });
    stats.push(total);
    const add = (field: keyof SituationStats, n = 1): void => {
      for (const s of stats) s[field] += n;
    };
    add('queries');
    const owners = new Set(truth.owners);
    const lived = new Set([...truth.residents, ...truth.formerResidents]);
    const family = new Set(truth.related);
    const flagged = outcome.results.map((r) => ({ r, id: identifier.identify(r) })).filter(({ r }) => r.owner === true);
    const problems: string[] = [];
    const kinds = new Set<FailureKind>();
    add('flagged', flagged.length);
    for (const { id } of flagged) {
      if (id !== null && owners.has(id)) add('flaggedRight');
      else {
        const how =
          id === null
            ? ''
            : family.has(id)
              ? " (the owners' family)"
              : lived.has(id)
                ? ' (a tenant: lives/lived there)'
                : '';
        problems.push(`flagged owner: ${who(id)}${how}`);
        if (id !== null && family.has(id)) {
          add('familyAsOwner');
          kinds.add('family-as-owner');
        } else if (id !== null && lived.has(id)) {
          add('tenantAsOwner');
          kinds.add('tenant-as-owner');
        } else kinds.add('wrong-owner');
      }
    }
    if (owners.size > 0) {
      const found = flagged.filter(({ id }) => id !== null && owners.has(id));
      if (!truth.tied) {
        add('untied');
        if (found.length > 0) add('untiedFound');
      } else {
        add('ownerInData');
        if (found.length > 0) add('ownerFound');
        else {
          problems.push(`owner not found: ${truth.owners.map(who).join('; ')}`);
          kinds.add('owner-missed');
        }
      }
      for (const { r, id } of found) {
        const person = world.truth.people.get(id!)!;
        if (person.deceased || person.current_phone === null) continue;
        add('phoneAsked');
        const first = r.phones[0] === undefined ? null : (normalizePhone(r.phones[0].number) ?? r.phones[0].number);
        if (first === person.current_phone) add('phoneFirst');
        else {
          kinds.add('phone-not-current');
          problems.push(
            `phones[0] ${first ?? '(none)'} (${r.phones[0]?.type ?? '-'}, last seen ${r.phones[0]?.last_seen ?? '-'}) is not ${who(id)}'s current ${person.current_phone}`,
          );
        }
      }
    } else {
      add('noOwner');
      if (flagged.length === 0) add('noOwnerRight');
    }
    const worst = FAILURE_KINDS.find((k) => kinds.has(k));
    if (worst !== undefined) {
      const byKind = failures.get(query.situation) ?? new Map<FailureKind, string[]>();
      failures.set(query.situation, byKind);
      const list = byKind.get(worst) ?? [];
      byKind.set(worst, list);
      if (list.length < examples) list.push(describeFailure(world, query, truth, outcome, problems));
    }
  });
  const ratio = (a: number, b: number): number => (b === 0 ? 1 : a / b);
  return {
    situations,
    forms,
    total,
    recall: ratio(total.ownerFound, total.ownerInData),
    precision: ratio(total.flaggedRight, total.flagged),
    tenantAsOwner: total.tenantAsOwner,
    noOwnerCorrect: ratio(total.noOwnerRight, total.noOwner),
    currentPhoneFirst: ratio(total.phoneFirst, total.phoneAsked),
    failures,
  };
}

function describeFailure(
  world: OwnerWorld,
  query: OwnerQuery,
  truth: ParcelTruth,
  outcome: TraceOutcome,
  problems: string[],
): string {
  const p = world.parcels[query.parcel]!;
  const q = query.property;
  const lines = [
    `[${query.form}${query.withMailing ? '+mailing' : ''}] ${q.first_name ?? ''}${q.first_name === undefined ? '' : ' '}${q.last_name ?? '(no name)'} @ ${q.street_address}, ${q.city} ${q.state} ${q.zip_code}`,
    `  roll: ${p.owner_name}${p.owner_name_2 === '' ? '' : ` / ${p.owner_name_2}`} | mail ${p.mailing_street_address}, ${p.mailing_city} ${p.mailing_state} (${truth.mailing}) | occupied ${p.owner_occupied || '-'}`,
    `  read as: ${(outcome.owners_of_record ?? []).map((o) => `${o.kind} ${o.name}`).join('; ') || '(nothing)'}`,
    ...problems.map((problem) => `  ${problem}`),
    `  returned: ${
      outcome.results
        .map(
          (r) =>
            `${r.first_name} ${r.last_name}${r.owner === true ? ' [owner]' : ''}${r.resident === true ? ' [resident]' : ''}`,
        )
        .join('; ') || `nobody (${outcome.error ?? outcome.status})`
    }`,
  ];
  return lines.join('\n');
}

/** Generates the world, imports it, traces the queries and grades them. */
export async function runOwnerEvaluation(db: Database, options: OwnerEvaluationOptions): Promise<OwnerReport> {
  const world = generateOwnerWorld({ people: options.people, seed: options.seed });
  options.onWorld?.(world);
  const people = await importContacts(db, ownerWorldPeopleNdjson(world.people), {
    format: 'ndjson',
    source: 'owner-evaluation',
  });
  if (people.rejected > 0) throw new Error(`the owner evaluation's people had ${people.rejected} rejected lines`);
  const parcels = await importProperties(db, ownerWorldPropertyCsv(world.parcels), {
    format: 'csv',
    source: 'owner-evaluation',
  });
  if (parcels.rejected > 0) throw new Error(`the owner evaluation's roll had ${parcels.rejected} rejected records`);
  const queries = ownerQueries(world, options.seed + 1, options.perSituation);
  const engine = createContactTraceEngine(db);
  const outcomes: TraceOutcome[] = [];
  const size = options.batch ?? 250;
  for (let i = 0; i < queries.length; i += size) {
    outcomes.push(...(await engine.traceMany(queries.slice(i, i + size).map((q) => q.property))));
  }
  return gradeOwners(world, queries, outcomes, options.examples);
}

const fixed = (x: number, width = 6): string => x.toFixed(3).padStart(width);

/** The report as a text table: one row per situation, then per query form, then the totals. */
export function formatOwnerEvaluation(report: OwnerReport): string {
  const header =
    'situation                   queries  owner recall  untied  precision  tenant→owner  family→owner  no-owner ok  phone first';
  const row = (name: string, s: SituationStats): string => {
    const recall =
      s.ownerInData === 0
        ? '     -      '
        : `${fixed(s.ownerFound / s.ownerInData)} (${String(s.ownerInData).padStart(4)})`;
    const precision = s.flagged === 0 ? '     -   ' : `${fixed(s.flaggedRight / s.flagged)}   `;
    const noOwner = s.noOwner === 0 ? '     -     ' : `${fixed(s.noOwnerRight / s.noOwner)}     `;
    const phone = s.phoneAsked === 0 ? '     -' : `${fixed(s.phoneFirst / s.phoneAsked)} (${s.phoneAsked})`;
    return `${name.padEnd(27)} ${String(s.queries).padStart(7)}  ${recall}  ${String(s.untied).padStart(6)}  ${precision}  ${String(s.tenantAsOwner).padStart(12)}  ${String(s.familyAsOwner).padStart(12)}  ${noOwner}  ${phone}`;
  };
  const lines = [header];
  for (const situation of OWNER_SITUATIONS) {
    const s = report.situations.get(situation);
    if (s !== undefined) lines.push(row(situation, s));
  }
  lines.push('', 'query form');
  for (const [form, s] of [...report.forms].sort(([a], [b]) => (a < b ? -1 : 1))) lines.push(row(form, s));
  lines.push('', row('all', report.total));
  lines.push(
    '',
    `owner recall ${report.recall.toFixed(4)}  precision ${report.precision.toFixed(4)}  tenant-as-owner ${report.tenantAsOwner}  ` +
      `(family-as-owner ${report.total.familyAsOwner})  ` +
      `no-owner-correct ${report.noOwnerCorrect.toFixed(4)}  current-phone-first ${report.currentPhoneFirst.toFixed(4)}`,
  );
  return lines.join('\n');
}

/** The failure examples, by situation and kind. */
export function formatOwnerFailures(report: OwnerReport): string {
  const lines: string[] = [];
  for (const situation of OWNER_SITUATIONS) {
    const byKind = report.failures.get(situation);
    if (byKind === undefined) continue;
    for (const kind of FAILURE_KINDS) {
      const list = byKind.get(kind);
      if (list !== undefined && list.length > 0) lines.push(`— ${situation}: ${kind}`, ...list);
    }
  }
  return lines.join('\n');
}
