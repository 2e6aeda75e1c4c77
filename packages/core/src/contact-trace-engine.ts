import type { Address, Property, TraceResult } from '@skiptrace/contracts';
import {
  CANDIDATE_LIMITS,
  findCandidates,
  seenEndDay,
  seenStartDay,
  findPropertyRecords,
  loadPeople,
  storedDetailsOf,
  type CandidateLimits,
  type ContactCandidate,
  type PersonRow,
  type PropertyRecordRow,
} from '@skiptrace/contacts';
import {
  blockingKeys,
  BoundedMemo,
  buildMatchQuery,
  rankCandidates,
  scoreCandidate,
  standardizeAddress,
  type BlockingKeys,
  type MatchQuery,
  type RankedCandidate,
} from '@skiptrace/matching';
import {
  lifeOf,
  nameAgreement,
  ownerJson,
  ownersNamedBy,
  ownersOfRecord,
  personView,
  recordFor,
  recordMailing,
  rowOfCandidate,
  soughtOf,
  type PersonView,
  type Sought,
} from './owner-trace.ts';
import type { Sql } from '@skiptrace/storage';
import type { TraceEngine, TraceOutcome } from './trace-engine.ts';

/** Most people returned for one property by default (see ContactTraceEngineOptions.maxPeople). */
export const DEFAULT_MAX_PEOPLE = 10;

/** Distinct owner texts (a caller's name, a record's owner columns) an engine remembers parsed (about twice this at most). */
const OWNER_MEMO_LIMIT = 20_000;

/** Owners as parsed, and the people sought for them. */
interface ParsedOwners {
  owners: ReturnType<typeof ownersOfRecord>;
  sought: Sought[];
}

export interface ContactTraceEngineOptions {
  /**
   * Most people returned for one property (default 10; the worker's TRACE_MAX_PEOPLE). An
   * address-only query returns every adult on file there who matches; when more match, the
   * best `maxPeople` are returned and the outcome says how many matched (`matched`).
   */
  maxPeople?: number;
  /** Candidates read per query and block (default CANDIDATE_LIMITS of @skiptrace/contacts). */
  candidateLimits?: CandidateLimits;
}

const NO_ADDRESS = 'no contact on file at this address';
const NO_OWNER = 'no owner of record was found among the people on file, and nobody on file lives at this address now';
/**
 * Most people of one surname flagged for an owner named by surname only ("SMITH FAMILY
 * TRUST"): the couple behind it, not their grown children at the same address.
 */
const MAX_SURNAME_OWNERS = 2;
/** A generation: people of the surname born this much later than its eldest are their children. */
const GENERATION_YEARS = 16;
const NO_NAME = 'people live at this address but none matches the owner name given';

type Ranked = RankedCandidate<ContactCandidate>;

/** Whether any of the three blocks (find-candidates.ts) returned as many rows as its limit. */
function anyBlockFull(candidates: ContactCandidate[], key: BlockingKeys, limits: CandidateLimits): boolean {
  let address = 0;
  let zipNumber = 0;
  let cityNumber = 0;
  for (const c of candidates) {
    if (c.addressKey === key.addressKey) address++;
    else if (c.zip5 === key.zip5) zipNumber++;
    else cityNumber++;
  }
  return address >= limits.address || zipNumber >= limits.zipNumber || cityNumber >= limits.cityNumber;
}

/** An owner found: the person's row that tied them, how well the name agreed, and which ties. */
interface OwnerMatch {
  c: ContactCandidate;
  sought: Sought;
  score: number;
  property: boolean;
  mailing: boolean;
  /** The standardised address that tied them (for the confidence). */
  at: MatchQuery['address'];
  /** Where the person lives now, if at a tie: their address seen last is the property's or the mailing address's. */
  current: 'property' | 'mailing' | null;
}

/** What owner matching knows of a query's people beyond their rows in the pool. */
interface PoolPeople {
  life: (c: ContactCandidate) => { currentUnitKey: string; deceased: boolean };
  /** Dwelling keys (unit keys) of the property's rows and of the mailing addresses' rows. */
  property: Set<string>;
  mailing: Set<string>;
}

const identityOf = (c: ContactCandidate): string => (c.personKey !== '' ? c.personKey : `row:${c.id}`);

/**
 * The owners among a query's pool: for each sought owner, the people whose name agrees and
 * who are tied by the property or a mailing address (owner-trace.ts). One person per owner
 * with a given name (the best agreement, then both ties, then the longest at the property);
 * the eldest generation of agreeing people, up to MAX_SURNAME_OWNERS, for an owner named
 * by surname only.
 */
function matchOwners(
  sought: Sought[],
  pool: { c: ContactCandidate; property: boolean; at: MatchQuery['address'] }[],
  confidence: Map<ContactCandidate, number>,
  people: PoolPeople,
  agree: (s: Sought, c: ContactCandidate) => number = nameAgreement,
): OwnerMatch[] {
  const chosen = new Map<string, OwnerMatch>();
  const currentOf = (c: ContactCandidate): OwnerMatch['current'] => {
    const unit = people.life(c).currentUnitKey;
    return people.property.has(unit) ? 'property' : people.mailing.has(unit) ? 'mailing' : null;
  };
  for (const s of sought) {
    const byPerson = new Map<string, OwnerMatch>();
    for (const { c, property, at } of pool) {
      const score = agree(s, c);
      if (score === 0) continue;
      const id = identityOf(c);
      const known = byPerson.get(id);
      if (known === undefined) {
        byPerson.set(id, { c, sought: s, score, property, mailing: !property, at, current: currentOf(c) });
      } else {
        known.property ||= property;
        known.mailing ||= !property;
        if (score > known.score) known.score = score;
      }
    }
    // The mailing address is where the owner's tax bill goes: a stronger tie than having
    // lived at the property, which tenants share (a tenant Jose Flores at the rental, the
    // owner Jose Flores at the mailing address).
    const ties = (m: OwnerMatch): number => 2 * Number(m.mailing) + Number(m.property);
    // What tells two people apart; firstSeen and id only order the rest.
    const decisive = (a: OwnerMatch, b: OwnerMatch): number =>
      b.score - a.score || ties(b) - ties(a) || (confidence.get(b.c) ?? 0) - (confidence.get(a.c) ?? 0);
    const ranked = [...byPerson.values()].sort(
      (a, b) =>
        decisive(a, b) ||
        (a.c.firstSeen < b.c.firstSeen ? -1 : a.c.firstSeen > b.c.firstSeen ? 1 : 0) ||
        a.c.id.length - b.c.id.length ||
        (a.c.id < b.c.id ? -1 : 1),
    );
    // Two people who agree with a named owner alike (R Stephens: Richard or Rajesh) leave
    // the owner unknown rather than guessed.
    if (s.named && ranked.length > 1 && decisive(ranked[0]!, ranked[1]!) === 0) continue;
    for (const match of s.named ? ranked.slice(0, 1) : surnameOwners(ranked, people).slice(0, MAX_SURNAME_OWNERS)) {
      const id = identityOf(match.c);
      if (!chosen.has(id)) chosen.set(id, match);
    }
  }
  return [...chosen.values()];
}

/**
 * The people behind an owner named by surname only (SMITH FAMILY TRUST): a surname is weak
 * evidence, so only people seen at the mailing address — where the trust's bill goes — or,
 * when nobody of the surname was, living at the property now (a tenant who shares a common
 * surname with an absentee trust is not the trust, nor is a former tenant); those living at
 * a tie now before the rest; then the eldest generation.
 */
function surnameOwners(matches: OwnerMatch[], people: PoolPeople): OwnerMatch[] {
  const atMailing = matches.filter((m) => m.mailing);
  const tied = atMailing.length > 0 ? atMailing : matches.filter((m) => m.current === 'property');
  const livingHere = tied.filter((m) => m.current !== null && !people.life(m.c).deceased);
  // Nobody alive lives at a tie now: the settlors may have died at the mailing address
  // (the trust's bill still goes there), and their grown children, who lived there once,
  // are not the trust — the eldest generation is, dead or alive (`deceased: true`).
  // The settlors first: those at a tie now, who stayed there longest (grown children left
  // earlier), who came first, the eldest.
  const ordered = eldest(livingHere.length > 0 ? livingHere : tied).sort(
    (a, b) =>
      Number(b.current !== null) - Number(a.current !== null) ||
      seenEndDay(b.c.lastSeen) - seenEndDay(a.c.lastSeen) ||
      seenStartDay(a.c.firstSeen) - seenStartDay(b.c.firstSeen) ||
      (a.c.birthYear ?? 9999) - (b.c.birthYear ?? 9999),
  );
  const [first, second] = ordered;
  if (first === undefined) return [];
  // A second person only as the first one's partner: at the tie over the same years, and of
  // the same generation when both birth years are known.
  const partner =
    second !== undefined &&
    second.c.firstSeen.slice(0, 4) === first.c.firstSeen.slice(0, 4) &&
    second.c.lastSeen.slice(0, 4) === first.c.lastSeen.slice(0, 4) &&
    (first.c.birthYear === null ||
      second.c.birthYear === null ||
      Math.abs(first.c.birthYear - second.c.birthYear) < GENERATION_YEARS);
  return partner ? [first, second] : [first];
}

/**
 * The surname matches of the eldest generation, eldest first (people without a birth year
 * are kept, after those with one): a trust is its settlors', not their children's.
 */
function eldest(matches: OwnerMatch[]): OwnerMatch[] {
  const years = matches.map((m) => m.c.birthYear).filter((y): y is number => y !== null);
  if (years.length === 0) return matches;
  const first = Math.min(...years);
  return matches.filter((m) => m.c.birthYear === null || m.c.birthYear - first < GENERATION_YEARS);
}

/** A row at an address key is at the query's dwelling: the query names no unit, or the row has the same one, or none. */
function sameDwelling(address: MatchQuery['address'], c: ContactCandidate): boolean {
  const building = `${address.key}|`;
  return address.unitKey === building || c.unitKey === address.unitKey || c.unitKey === `${c.addressKey}|`;
}

/** The blocking keys of a mailing address a person can be found at (a street address; not a PO box). */
function mailingKeys(address: Address | undefined): { key: BlockingKeys; at: MatchQuery['address'] } | undefined {
  if (address === undefined) return undefined;
  const at = standardizeAddress(address);
  if (at.number === '' || at.zip5 === null || at.state === null) return undefined;
  return { key: blockingKeys(at), at };
}

/**
 * The production trace engine (docs/matching.md):
 *
 * 1. standardises each address; reads the contacts stored at it and the property record
 *    there (one statement each for the whole batch);
 * 2. ranks the people at the address — everyone (with a record, whose owners are judged
 *    apart) or those matching the caller's name (without one); for queries that found
 *    nobody there, reads the contacts near it by every blocking key and ranks again;
 * 3. reads the contacts at the owners' mailing addresses (the caller's, and the record's),
 *    for the queries with an owner to look for;
 * 4. finds the owners: name agreement with an owner of record (or the caller's name) plus
 *    an address tie (owner-trace.ts);
 * 5. reads every row of the people who may be returned (history, current address, phones)
 *    and, in the same statement, the suppression flags of their phones.
 *
 * A batch of queries all found at their address costs two round trips (the contacts and the
 * records there, in parallel; the people's rows with their phones' flags); one more for the
 * queries that found nobody there, one more for the owners' mailing addresses.
 *
 * Results: the owners first (owner: true), then the people who live there now (owner:
 * false, or absent when neither a record nor an owner name exists); a person seen there
 * once who has moved on and owns nothing is not returned.
 */
export function createContactTraceEngine(db: Sql, options: ContactTraceEngineOptions = {}): TraceEngine {
  const maxPeople = options.maxPeople ?? DEFAULT_MAX_PEOPLE;
  if (!Number.isInteger(maxPeople) || maxPeople < 1) throw new RangeError(`maxPeople must be a positive integer`);
  const limits = options.candidateLimits ?? CANDIDATE_LIMITS;
  // Owners parsed once per distinct owner text, the caller's name (no record at the address)
  // or a record's owner columns, with the people sought for them: a list repeats its common
  // names, a roll its landlords and common names, and parsing costs 5–10 µs a name (a record's
  // owners were most of what it cost the trace). The parser is pure and the owners are only
  // read, so a remembered list serves every query with the same owner text.
  const parsedOwners = new BoundedMemo<ParsedOwners>(OWNER_MEMO_LIMIT);
  const remembered = (key: string, parse: () => ParsedOwners['owners']): ParsedOwners => {
    let found = parsedOwners.get(key);
    if (found === undefined) {
      const owners = parse();
      parsedOwners.set(key, (found = { owners, sought: soughtOf(owners) }));
    }
    return found;
  };
  const namedOwners = (p: Property) =>
    remembered(`n\u001f${p.first_name ?? ''}\u001f${p.last_name ?? ''}`, () => ownersNamedBy(p));
  const recordOwners = (r: PropertyRecordRow) =>
    remembered(
      `r\u001f${r.name_order}\u001f${r.owner_name}\u001f${r.owner_name_2}\u001f${r.owner_1_first_name}\u001f${r.owner_1_last_name}\u001f${r.owner_2_first_name}\u001f${r.owner_2_last_name}`,
      () => ownersOfRecord(r),
    );
  async function traceMany(properties: Property[]): Promise<TraceOutcome[]> {
    const queries = properties.map((p) => buildMatchQuery(p));
    const keys = queries.map((q) => blockingKeys(q.address));
    // Two steps: the exact address key for every query, then all blocking keys only for the
    // queries that found nobody above the threshold there (a misspelt street, a wrong ZIP,
    // an address not on file) — most queries stop after the first, cheaper probe.
    const [found, records] = await Promise.all([
      findCandidates(db, keys, options.candidateLimits, 'address'),
      findPropertyRecords(
        db,
        keys.map((k) => k.addressKey),
      ),
    ]);
    const record = queries.map((q, i) => recordFor(records.get(keys[i]!.addressKey), q.address));
    // With a record its owners are judged apart: everyone at the address is ranked.
    const rankBy = queries.map((q, i): MatchQuery => (record[i] ? { address: q.address } : q));
    const rank = (i: number): Ranked[] => rankCandidates(rankBy[i]!, found[i]!);
    const ranked: Ranked[][] = queries.map((_, i) => rank(i));
    const again: number[] = [];
    for (let i = 0; i < queries.length; i++) if (ranked[i]!.length === 0 && keys[i]!.number !== '') again.push(i);
    if (again.length > 0) {
      const near = await findCandidates(
        db,
        again.map((i) => keys[i]!),
        options.candidateLimits,
      );
      again.forEach((i, j) => {
        found[i] = near[j]!;
        ranked[i] = rank(i);
      });
    }

    // The owners each query looks for: its record's, else the caller's name (parsed once per
    // distinct owner text, see recordOwners and namedOwners).
    const owners: ParsedOwners['owners'][] = [];
    const sought: Sought[][] = [];
    properties.forEach((p, i) => {
      const rec = record[i];
      const parsed = rec === undefined ? namedOwners(p) : recordOwners(rec);
      owners.push(parsed.owners);
      sought.push(parsed.sought);
    });
    const mailing = properties.map((p, i) => p.mailing_address ?? (record[i] ? recordMailing(record[i]!) : undefined));
    // Mailing addresses to read: the caller's and the record's (they may differ), not the property itself.
    const mailingAt: { i: number; key: BlockingKeys; at: MatchQuery['address'] }[] = [];
    properties.forEach((p, i) => {
      if (sought[i]!.length === 0) return;
      const seen = new Set([keys[i]!.addressKey]);
      const rec = record[i];
      // The record's mailing address was standardised at import: its stored key says whether
      // it is a street address and whether it is the property's (an owner-occupied parcel).
      const fromRecord =
        rec !== undefined && rec.mailing_key !== '' && rec.mailing_key !== keys[i]!.addressKey
          ? recordMailing(rec)
          : undefined;
      for (const address of [p.mailing_address, fromRecord]) {
        const keyed = mailingKeys(address);
        if (keyed === undefined || seen.has(keyed.key.addressKey)) continue;
        seen.add(keyed.key.addressKey);
        mailingAt.push({ i, ...keyed });
      }
    });
    const mailingFound =
      mailingAt.length === 0
        ? []
        : await findCandidates(
            db,
            mailingAt.map((m) => m.key),
            options.candidateLimits,
            'address',
          );
    const pools = queries.map((q, i) => {
      const pool: { c: ContactCandidate; property: boolean; at: MatchQuery['address'] }[] = [];
      const inRank = new Set(ranked[i]!.map((r) => r.candidate));
      for (const c of found[i]!) {
        if (inRank.has(c) || (c.addressKey === keys[i]!.addressKey && sameDwelling(q.address, c))) {
          pool.push({ c, property: true, at: q.address });
        }
      }
      return pool;
    });
    mailingAt.forEach(({ i, key, at }, j) => {
      for (const c of mailingFound[j]!) {
        if (c.addressKey === key.addressKey && sameDwelling(at, c)) pools[i]!.push({ c, property: false, at });
      }
    });

    // How well each sought owner's name agrees with each person in the pool: computed once,
    // here and for matchOwners below.
    const agreements = new Map<Sought, Map<ContactCandidate, number>>();
    const agree = (s: Sought, c: ContactCandidate): number => {
      let known = agreements.get(s);
      if (known === undefined) agreements.set(s, (known = new Map()));
      let score = known.get(c);
      if (score === undefined) known.set(c, (score = nameAgreement(s, c)));
      return score;
    };
    // The people who may be owners or live there: those in the pool whose name agrees with
    // an owner sought, and the best ranked.
    const personKeys = new Set<string>();
    const loners: ContactCandidate[] = [];
    const consider = (c: ContactCandidate) => (c.personKey === '' ? loners.push(c) : personKeys.add(c.personKey));
    pools.forEach((pool, i) => {
      for (const { c } of pool) if (sought[i]!.some((s) => agree(s, c) > 0)) consider(c);
      for (const r of ranked[i]!.slice(0, maxPeople)) consider(r.candidate);
    });
    // The rows already read at the property and the mailing addresses (with their phones and
    // e-mails) are not read again.
    const known: PersonRow[] = [];
    for (const list of [...found, ...mailingFound]) {
      for (const c of list) {
        if (!personKeys.has(c.personKey)) continue;
        const stored = storedDetailsOf(c);
        if (stored !== undefined) known.push(rowOfCandidate(c, stored.phones, stored.emails));
      }
    }
    // Every row of those people, read before the owners are chosen (where a person lives now
    // decides between namesakes), and in the same statement the suppression flags of every
    // phone any of them may be returned with: the rows' read there, those held here, and
    // those of rows without a person_id (their only row).
    const numbers = new Set<string>();
    for (const row of known) for (const phone of row.phones) numbers.add(phone.number);
    for (const c of loners) for (const phone of storedDetailsOf(c)?.phones ?? []) numbers.add(phone.number);
    const { rows: personRows, suppressed } = await loadPeople(db, personKeys, known, numbers);
    const rowsOf = (c: ContactCandidate): PersonRow[] => {
      const rows = c.personKey === '' ? undefined : personRows.get(c.personKey);
      if (rows !== undefined && rows.length > 0) return rows;
      const stored = storedDetailsOf(c);
      return [rowOfCandidate(c, stored?.phones ?? [], stored?.emails ?? [])];
    };
    const lives = new Map<string, { currentUnitKey: string; deceased: boolean }>();
    const life = (c: ContactCandidate) => {
      const id = identityOf(c);
      let known = lives.get(id);
      if (known === undefined) lives.set(id, (known = lifeOf(rowsOf(c))));
      return known;
    };

    // The ranking's confidence breaks ties between people whose names agree alike (J Smith: John or Jane).
    const rankedConfidence = ranked.map((list) => new Map(list.map((r) => [r.candidate, r.confidence])));
    const ownerMatches = sought.map((s, i) => {
      if (s.length === 0) return [];
      const property = new Set(pools[i]!.filter((e) => e.property).map((e) => e.c.unitKey));
      const mailing = new Set(pools[i]!.filter((e) => !e.property).map((e) => e.c.unitKey));
      return matchOwners(s, pools[i]!, rankedConfidence[i]!, { life, property, mailing }, agree);
    });

    const views = new Map<string, PersonView>();
    const viewOf = (c: ContactCandidate): PersonView => {
      const id = identityOf(c);
      let view = views.get(id);
      if (view === undefined) {
        view = personView(rowsOf(c), suppressed);
        views.set(id, view);
      }
      return view;
    };

    return queries.map((q, i): TraceOutcome => {
      const candidates = found[i] as ContactCandidate[];
      const rec = record[i];
      const ownersKnown = rec !== undefined || owners[i]!.length > 0;
      const extra: Pick<TraceOutcome, 'owners_of_record' | 'mailing_address'> = {};
      if (rec !== undefined) extra.owners_of_record = owners[i]!.map(ownerJson);
      if (mailing[i] !== undefined) extra.mailing_address = mailing[i];
      // The property's dwellings on file: the rows at its key and those the ranking placed
      // there (a misspelt street). A person lives there when their address seen last is one
      // of them; a row without a person_id there is its person's only address.
      const dwellings = new Set(pools[i]!.filter((e) => e.property).map((e) => e.c.unitKey));
      const livesHere = (c: ContactCandidate, view: PersonView): boolean => {
        if (view.deceased) return false;
        if (c.personKey === '') return dwellings.has(c.unitKey);
        return dwellings.has(view.currentUnitKey);
      };
      const results: TraceResult[] = [];
      const listed = new Set<string>();
      for (const m of ownerMatches[i]!.sort((a, b) => b.score - a.score)) {
        const view = viewOf(m.c);
        const scored = scoreCandidate(
          { address: m.at, firstName: m.sought.owner.firstName ?? null, lastName: m.sought.owner.lastName ?? null },
          m.c,
        );
        const reasons = [
          rec !== undefined ? 'owner_of_record' : 'owner_named',
          ...(m.property ? ['owner_tie_property'] : []),
          ...(m.mailing ? ['owner_tie_mailing'] : []),
          ...scored.reasons,
        ];
        // The ranking's confidence where the person was ranked at the property; else the
        // calibrated score of the owner's name at the address that tied them.
        const confidence = rankedConfidence[i]!.get(m.c) ?? scored.confidence;
        results.push(resultOf(m.c, view, confidence, reasons, true, livesHere(m.c, view)));
        listed.add(identityOf(m.c));
      }
      let residents = 0;
      for (const { candidate: c, confidence, reasons } of ranked[i]!) {
        if (listed.has(identityOf(c))) continue;
        const view = viewOf(c);
        if (!livesHere(c, view)) continue;
        residents++;
        listed.add(identityOf(c));
        if (results.length < maxPeople)
          results.push(resultOf(c, view, confidence, reasons, ownersKnown ? false : undefined, true));
      }
      // A block came back full: the people not read were not compared (docs/matching.md §5).
      const blockFull = anyBlockFull(candidates, keys[i]!, limits);
      const total = ownerMatches[i]!.length + residents;
      if (results.length === 0) {
        const error = rec !== undefined ? NO_OWNER : candidates.length > 0 ? NO_NAME : NO_ADDRESS;
        return blockFull
          ? { status: 'no_match', results: [], error, matched: 0, ...extra }
          : { status: 'no_match', results: [], error, ...extra };
      }
      const capped = results.slice(0, maxPeople);
      return total > maxPeople || blockFull
        ? { status: 'completed', results: capped, matched: total, ...extra }
        : { status: 'completed', results: capped, ...extra };
    });
  }
  return {
    traceMany,
    async trace(property) {
      const [outcome] = await traceMany([property]);
      return outcome!;
    },
  };
}

function resultOf(
  c: ContactCandidate,
  view: PersonView,
  confidence: number,
  reasons: string[],
  owner: boolean | undefined,
  resident: boolean,
): TraceResult {
  const result: TraceResult = {
    first_name: c.firstName,
    last_name: c.lastName,
    confidence,
    reasons,
    phones: view.phones,
    emails: view.emails,
  };
  if (c.middleName !== '') result.middle_name = c.middleName;
  if (owner !== undefined) result.owner = owner;
  result.resident = resident;
  if (view.deceased) result.deceased = true;
  result.current_address = {
    street_address: view.current.street_address,
    city: view.current.city,
    state: view.current.state,
    zip_code: view.current.zip_code,
  };
  result.addresses = view.addresses;
  return result;
}
