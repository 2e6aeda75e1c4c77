/**
 * A generated owner world (#24 items 6 and 7): people followed from 2006 to 2026 through their
 * moves, and a property roll whose owners of record are written the way county rolls write
 * them. Deterministic for a seed (mulberry32); for the demo (`./run start`) and the owner
 * evaluation (test/eval/owner-evaluation.ts).
 *
 * The world is simulated month by month, 2006-01 to 2026-10. Households form (from the start,
 * or later: incomers, and grown children leaving home), own or rent a home, move (together),
 * and die. Owners who move sell (the house waits for a buyer, who may be an outsider the
 * people data does not hold) or keep the house and rent it out; the roll's mailing address
 * follows them or not (the property itself, an old home, a PO box). Some households invest in
 * rentals (held in their names, a trust or an LLC). Renters live in vacant rentals, or in new
 * ones held by landlords of the world, landlords the people data lacks, companies, housing
 * authorities and churches. Older owners put their home into a revocable trust. A sole owner's
 * death turns the roll into an estate (or leaves the dead owner's name), an heir may move in.
 *
 * Phones: a mobile per adult (a few elderly people never have one), sometimes replaced by a
 * new number; a household landline at some homes (more often early and for older people),
 * left behind — its last_seen is the move — when they move, now and then cut before; a
 * second VoIP line for a few. The current phone (`truth.people`) is the one seen last, a
 * mobile before a landline when equally recent: every open phone of a person carries the same
 * last_seen (the person's latest refresh in the data), so there are no ties to argue about.
 * All numbers are NPA-555-0100…0199 (fictional), unique in the world except a household's
 * shared landline; e-mails use example.com/.net/.org (RFC 2606).
 *
 * The people data is the world's, not a copy of the truth: a few people appear under a
 * nickname, a middle name is written out, abbreviated or missing, a suffix and a birth year
 * are often left out, some deaths are not flagged, a few old addresses and old phones are
 * missing. Owners outside the people data (outside buyers, landlords the data lacks) exist
 * only on the roll.
 *
 * What the world deliberately does not contain: a landlord who never lived at a property and
 * receives the roll's mail at a PO box — no address ties such a landlord to the property, so
 * no rule that needs a name AND an address tie (#24 item 4) could find them; PO boxes go to
 * owners who once lived at the property, to companies and to public bodies.
 */
import { PROPERTY_RECORD_COLUMNS, type PropertyRecordColumn } from '@skiptrace/contracts';
import { STATE_NAMES, foldAscii } from '@skiptrace/matching';
import {
  DEMO_FIRST_NAMES,
  DEMO_LAST_NAMES,
  DEMO_PLACES,
  DEMO_STREETS,
  DEMO_SUFFIXES,
  type DemoPlace,
} from './places.ts';
import { hashString, mulberry32, type Random } from './prng.ts';

export interface OwnerWorldOptions {
  /** People in the people data (the world also holds owners the people data lacks). */
  people: number;
  /** Any 32-bit integer. */
  seed: number;
}

/** One address of a person, as the NDJSON person form carries it. */
export interface OwnerWorldAddress {
  street_address: string;
  city: string;
  state: string;
  zip_code: string;
  first_seen: string;
  last_seen: string;
}

export interface OwnerWorldPhone {
  /** "+15125550123", "512-555-0123", "(512) 555-0123" or "5125550123". */
  number: string;
  type: 'mobile' | 'landline' | 'voip';
  first_seen: string;
  last_seen: string;
}

/** A person in the NDJSON person form of `importContacts` (one JSON object a line). */
export interface OwnerWorldPerson {
  person_id: string;
  first_name: string;
  middle_name?: string;
  last_name: string;
  suffix?: string;
  birth_year?: number;
  deceased?: boolean;
  /** Newest first; the current address is the one with the latest last_seen. */
  addresses: OwnerWorldAddress[];
  phones: OwnerWorldPhone[];
  emails: string[];
}

/** A property record in the canonical columns; '' where the roll has nothing. */
export type OwnerWorldParcel = Record<PropertyRecordColumn, string>;

/** What the world knows about a parcel now, for grading a trace. */
export type OwnerSituation =
  | 'owner_occupied'
  | 'absentee_landlord'
  | 'moved_out_mailing_current'
  | 'moved_out_mailing_stale'
  | 'moved_out_po_box'
  | 'trust_occupied'
  | 'trust_absentee'
  | 'estate'
  | 'owner_deceased'
  | 'company'
  | 'government'
  | 'organization'
  | 'owner_missing';

export const OWNER_SITUATIONS: readonly OwnerSituation[] = [
  'owner_occupied',
  'absentee_landlord',
  'moved_out_mailing_current',
  'moved_out_mailing_stale',
  'moved_out_po_box',
  'trust_occupied',
  'trust_absentee',
  'estate',
  'owner_deceased',
  'company',
  'government',
  'organization',
  'owner_missing',
];

/** Where the roll's mailing address points. */
export type MailingTruth = 'property' | 'owner_current' | 'owner_old' | 'heir' | 'po_box' | 'office' | 'elsewhere';

export type RecordKind = 'person' | 'trust' | 'estate' | 'company' | 'government' | 'organization';

export interface ParcelTruth {
  apn: string;
  situation: OwnerSituation;
  /** The kind of the first owner of record, as the roll means it. */
  recordKind: RecordKind;
  /**
   * The owners of record in the people data (person ids): the people named, a couple under
   * "SMITH JOHN & MARY" or ETAL, the trustees of a trust, the decedent of an estate. Empty for
   * companies and public bodies, and when the owners are not in the people data.
   */
  owners: string[];
  /** Owners of record who are people missing from the people data. */
  missingOwners: number;
  /**
   * Whether an owner the roll names (by name, or by surname for "SMITH FAMILY TRUST", after the
   * field's cut) is tied to the parcel in the people data: the property or the roll's mailing
   * address is among their addresses there. False when the data lacks the one address that
   * would tie them (an old address missing, a stale mailing address they never had) or the
   * roll names only an owner who is not in the data ("SMITH JOHN ETAL" with John missing):
   * then no rule that asks for a name agreement and an address tie can find the owner.
   */
  tied: boolean;
  /** Alive people living at the parcel now (any of its units). */
  residents: string[];
  /** People who lived there before and moved or died. */
  formerResidents: string[];
  /**
   * The owners' family who are not owners of record: partners (ever, a late spouse too),
   * children (an estate's heirs), parents, siblings, and whoever lives with them now.
   */
  related: string[];
  mailing: MailingTruth;
  /** Units at the parcel (1 for a house). */
  units: number;
  /**
   * The owners as an investor's list holds them, split: a person's first and last name (the
   * first name as the roll has it, sometimes with the middle initial); a trust, estate,
   * company or public body whole in `last_name`.
   */
  listOwners: { first_name?: string; last_name: string }[];
}

export interface PersonTruth {
  person_id: string;
  /** E.164 of the phone seen last (a mobile first among equally recent); null without phones. */
  current_phone: string | null;
  /** E.164 of every phone the person has in the data. */
  phones: string[];
  deceased: boolean;
  /** Names as the people data has them. */
  first_name: string;
  last_name: string;
}

export interface OwnerWorld {
  people: OwnerWorldPerson[];
  parcels: OwnerWorldParcel[];
  truth: {
    /** Same order as `parcels`. */
    parcels: ParcelTruth[];
    people: Map<string, PersonTruth>;
  };
}

// ---------------------------------------------------------------------------------------------
// Time: month indexes, 0 = 2006-01.

const START_YEAR = 2006;
const monthIndex = (year: number, month: number): number => (year - START_YEAR) * 12 + (month - 1);
/** The world's present: 2026-10. */
const NOW = monthIndex(2026, 10);
const yearOf = (m: number): number => START_YEAR + Math.floor(m / 12);
const monthOf = (m: number): number => (((m % 12) + 12) % 12) + 1;
const pad2 = (n: number): string => String(n).padStart(2, '0');

// ---------------------------------------------------------------------------------------------
// Vocabulary.

const FEMALE_FROM = DEMO_FIRST_NAMES.indexOf('Mary');
const MALE_NAMES = [...DEMO_FIRST_NAMES.slice(0, FEMALE_FROM), 'José', 'Noël'];
const FEMALE_NAMES = DEMO_FIRST_NAMES.slice(FEMALE_FROM).filter((n) => n !== 'José' && n !== 'Noël');

/**
 * Surnames as a population has them: a few common ones shared by many (the demo list, most
 * common first, Zipf-weighted: 35% of people), and a long tail (65%). Drawn uniformly from
 * the demo list alone, every surname would be as common as SMITH, and a roll's surname-only
 * owner ("SMITH FAMILY TRUST") would meet namesakes at every address about ten times as often
 * as it does in a real county.
 */
const COMMON_SURNAME_SHARE = 0.35;
const COMMON_SURNAME_CUMULATIVE = DEMO_LAST_NAMES.reduce<number[]>((out, _, i) => {
  out.push((out[i - 1] ?? 0) + 1 / (i + 8));
  return out;
}, []);
const COMMON_SURNAME_WEIGHT = COMMON_SURNAME_CUMULATIVE.at(-1)!;
/** The long tail: English place-name surnames (Blackwood, Caldwell, Whitworth …), ours. */
const TAIL_SURNAMES: readonly string[] = (() => {
  const heads =
    'Ash,Black,Brad,Brook,Cald,Chad,Clay,Cran,Dal,Dun,Ed,Ell,Fair,Fen,Gar,Glen,Hal,Hart,Hay,Holt,Kel,Kings,Lang,Lind,Mar,Mid,Mil,Nor,Pem,Rad,Rath,Ros,Rut,Shel,Stan,Stock,Thorn,Wal,Whit,Win'.split(
      ',',
    );
  const tails =
    'ley,ton,wood,field,ford,well,worth,by,more,ridge,ham,land,wick,stead,bury,combe,den,croft,dale,hurst,man,low,brook,shaw,ing,wright'.split(
      ',',
    );
  const common = new Set(DEMO_LAST_NAMES.map((n) => n.toUpperCase()));
  return heads.flatMap((h) => tails.map((t) => `${h}${t}`)).filter((n) => !common.has(n.toUpperCase()));
})();

/** Names people go by in some data sources (ours, small: the people data's own noise). */
const GOES_BY: Readonly<Record<string, string>> = {
  Robert: 'Bob',
  William: 'Bill',
  Richard: 'Rick',
  James: 'Jim',
  Michael: 'Mike',
  Thomas: 'Tom',
  Joseph: 'Joe',
  Christopher: 'Chris',
  Daniel: 'Dan',
  Anthony: 'Tony',
  Kenneth: 'Ken',
  Timothy: 'Tim',
  Steven: 'Steve',
  Edward: 'Ed',
  Elizabeth: 'Beth',
  Patricia: 'Pat',
  Jennifer: 'Jenny',
  Margaret: 'Peggy',
  Katherine: 'Kathy',
  Deborah: 'Debbie',
  Susan: 'Sue',
  Kimberly: 'Kim',
  Rebecca: 'Becky',
  Samantha: 'Sam',
  Cynthia: 'Cindy',
};

/**
 * Area codes for phone numbers besides the places' own: real US NPAs (numbers move with
 * people; only NPA-555-0100…0199 is used in each, the fictional range). The places' codes
 * are tried first for landlines.
 */
export const MORE_AREA_CODES = (
  '201 203 205 206 207 209 210 214 215 216 217 219 224 225 228 229 231 234 239 240 248 251 252 253 254 ' +
  '256 260 262 267 269 270 276 281 301 302 303 304 305 307 308 309 310 312 313 314 315 316 317 318 319 ' +
  '320 321 323 325 330 334 336 337 339 346 347 352 360 361 385 386 401 402 404 405 406 407 408 409 410 ' +
  '412 413 414 415 417 419 423 424 425 430 432 434 435 440 443 469 470 475 478 479 480 484 501 502 503 ' +
  '504 505 507 508 509 510 512 513 515 516 517 518 520 530 540 541 551 559 561 562 563 567 570 571 573 ' +
  '574 575 580 585 586 601 602 603 605 606 607 608 609 610 612 614 615 616 617 618 619 620 623 626 630 ' +
  '631 636 641 646 650 651 660 661 662 678 682 701 702 703 704 706 707 708 712 713 714 715 716 717 718 ' +
  '719 720 724 727 731 732 734 737 740 754 757 760 763 765 770 772 773 774 775 781 785 786 801 802 803 ' +
  '804 805 806 808 810 812 813 814 815 816 817 818 828 830 831 832 843 845 847 850 856 857 858 859 860 ' +
  '862 863 864 865 870 901 903 904 906 907 908 909 910 912 913 914 915 916 917 918 919 920 925 928 931 ' +
  '936 937 940 941 947 949 951 952 954 956 970 971 972 973 978 979 980 985 989'
).split(' ');

const COMPANY_WORDS = (
  'ACME,BLUE RIDGE,SUMMIT,PINNACLE,OAKWOOD,RIVERBEND,KEYSTONE,MERIDIAN,CORNERSTONE,LIBERTY,PATRIOT,' +
  'EVERGREEN,HARBOR POINT,SILVER OAK,GOLDEN GATE,LONE STAR,NORTHSTAR,EAGLE,CARDINAL,HERITAGE,REDWOOD,' +
  'TRIDENT,APEX,HORIZON,CRESTVIEW,BRIGHTON,WESTGATE,STONEGATE,IRONWOOD,MAPLE LEAF,FIRST CHOICE,' +
  'TRUE NORTH,BLACKSTONE CREEK,GREEN VALLEY,SUNBELT,MIDWEST,COASTAL,PRAIRIE,GRANITE,COPPER CREEK'
).split(',');
const COMPANY_KINDS = (
  'HOLDINGS,PROPERTIES,INVESTMENTS,REALTY,RENTALS,HOMES,CAPITAL,ASSETS,VENTURES,PROPERTY MANAGEMENT,' +
  'REAL ESTATE,RESIDENTIAL,HOUSING PARTNERS,ACQUISITIONS'
).split(',');
const COMPANY_FORMS = 'LLC,LLC,LLC,LLC,INC,INC,CORP,LP,LTD,L L C,CO'.split(',');
const OFFICE_STREETS =
  'Commerce,Corporate,Executive,Business Park,Industrial,Technology,Enterprise,Gateway,Plaza'.split(',');
const SAINTS = 'JOHN,MARY,PAUL,PETER,JAMES,JOSEPH,ANNE,LUKE,MARK,MICHAEL,PATRICK,FRANCIS'.split(',');

// ---------------------------------------------------------------------------------------------
// The simulation's records.

interface Person {
  id: number;
  first: string;
  middle: string | null;
  last: string;
  suffix: string | null;
  male: boolean;
  birthYear: number;
  inData: boolean;
  death: number | null;
  stints: { dwelling: number; from: number; to: number | null }[];
  phones: { e164: string; type: 'mobile' | 'landline' | 'voip'; from: number; to: number | null }[];
  household: number | null;
  parents: number[];
  children: number[];
  /** Spouses and partners, ever. */
  partners: number[];
}

interface Household {
  id: number;
  members: number[];
  head: number;
  spouse: number | null;
  place: number;
  home: number | null;
  movedIn: number;
  landline: string | null;
  investor: boolean;
  rentals: number;
  moves: number;
}

interface Dwelling {
  id: number;
  place: number;
  number: number;
  street: string;
  suffix: string;
  unit: string | null;
  parcel: number;
  /** Household id, -1 for people outside the data, null when vacant. */
  occupant: number | null;
}

type Mailing =
  | { kind: 'property' }
  | { kind: 'dwelling'; dwelling: number }
  | { kind: 'street'; place: number; line: string }
  | { kind: 'pobox'; place: number; box: number };

type TrustStyle = 'family' | 'trustee' | 'named';

type Holder =
  | { type: 'people'; ids: number[]; trust: TrustStyle | null; style: number }
  | { type: 'estate'; decedent: number; style: number }
  | { type: 'company'; company: number }
  | { type: 'government' | 'organization'; name: string };

interface Parcel {
  id: number;
  place: number;
  dwellings: number[];
  holder: Holder;
  acquired: number;
  mailing: Mailing;
  rental: boolean;
  /** Month the house was put up for sale, while nobody has bought it. */
  forSale: number | null;
  /** Month an estate or a dead owner's house starts waiting to be sold. */
  settle: number | null;
}

interface Company {
  name: string;
  mailing: Mailing;
}

interface Convention {
  /** Owner name fields cut at this width (0: not cut). */
  width: number;
  order: 'lastFirst' | 'firstLast';
  /** A list provider's export: split owner name columns besides the whole string. */
  split: boolean;
  apostrophes: boolean;
  hyphens: boolean;
  occupiedFlag: boolean;
  apn: number;
  /** Middle initials written for people who have one. */
  initials: number;
}

interface PlaceState {
  info: DemoPlace;
  used: Set<string>;
  vacant: number[];
  forSale: number[];
  convention: Convention;
  sequence: number;
}

// ---------------------------------------------------------------------------------------------

class PhoneBook {
  private readonly free = new Map<string, number[]>();
  private readonly codes: string[];
  private readonly random: Random;
  constructor(random: Random, placeCodes: readonly string[]) {
    this.random = random;
    this.codes = [...new Set([...placeCodes, ...MORE_AREA_CODES])];
  }
  /** A fresh number, in `npa` when it still has one, else in another area code. */
  take(npa: string): string {
    const own = this.lines(npa);
    if (own.length > 0) return `+1${npa}55501${pad2(own.pop()!)}`;
    for (let tries = 0; tries < 40; tries++) {
      const code = this.codes[Math.floor(this.random() * this.codes.length)]!;
      const lines = this.lines(code);
      if (lines.length > 0) return `+1${code}55501${pad2(lines.pop()!)}`;
    }
    for (const code of this.codes) {
      const lines = this.lines(code);
      if (lines.length > 0) return `+1${code}55501${pad2(lines.pop()!)}`;
    }
    throw new RangeError(
      `the world ran out of fictional phone numbers (${this.codes.length * 100}); ask for fewer people`,
    );
  }
  private lines(npa: string): number[] {
    let lines = this.free.get(npa);
    if (lines === undefined) {
      lines = Array.from({ length: 100 }, (_, i) => i);
      for (let i = lines.length - 1; i > 0; i--) {
        const j = Math.floor(this.random() * (i + 1));
        [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      }
      this.free.set(npa, lines);
    }
    return lines;
  }
}

class WorldBuilder {
  private readonly random: Random;
  private readonly persons: Person[] = [];
  private readonly households: Household[] = [];
  private readonly dwellings: Dwelling[] = [];
  private readonly parcels: Parcel[] = [];
  private readonly companies: Company[] = [];
  private readonly places: PlaceState[];
  /** Places where most of the world lives; the others receive movers and distant owners. */
  private readonly homePlaces: number[];
  private readonly phones: PhoneBook;
  private inData = 0;
  /** Per person, the dwellings their data record lists (some old ones are missing). */
  private readonly listed = new Map<number, Set<number>>();

  private readonly options: OwnerWorldOptions;

  constructor(options: OwnerWorldOptions) {
    this.options = options;
    this.random = mulberry32(options.seed);
    this.places = DEMO_PLACES.map((info) => ({
      info,
      used: new Set<string>(),
      vacant: [],
      forSale: [],
      convention: this.convention(),
      sequence: 0,
    }));
    const order = this.places.map((_, i) => i);
    this.shuffle(order);
    this.homePlaces = order.slice(0, Math.max(6, Math.min(24, Math.round(options.people / 250))));
    this.phones = new PhoneBook(
      mulberry32(options.seed ^ 0x5bd1e995),
      DEMO_PLACES.map((p) => p.areaCode),
    );
  }

  // --- dice ---------------------------------------------------------------------------------
  private chance(p: number): boolean {
    return this.random() < p;
  }
  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }
  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)] as T;
  }
  private shuffle<T>(list: T[]): void {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
  }

  private convention(): Convention {
    const w = this.random();
    const order = this.chance(0.12) ? 'firstLast' : 'lastFirst';
    return {
      // 21-character fields are the old LAST FIRST rolls; a FIRST LAST roll cut there would lose the surname.
      width: w < 0.2 && order === 'lastFirst' ? 21 : w < 0.75 ? 40 : 0,
      order,
      split: this.chance(0.3),
      apostrophes: this.chance(0.5),
      hyphens: this.chance(0.6),
      occupiedFlag: this.chance(0.75),
      apn: this.int(0, 2),
      initials: 0.6 + this.random() * 0.35,
    };
  }

  // --- people ---------------------------------------------------------------------------------
  private person(male: boolean, last: string, birthYear: number, inData: boolean, first?: string): Person {
    const given = first ?? this.pick(male ? MALE_NAMES : FEMALE_NAMES);
    let middle: string | null = null;
    if (this.chance(0.68)) {
      middle = this.pick(male ? MALE_NAMES : FEMALE_NAMES);
      while (middle === given) middle = this.pick(male ? MALE_NAMES : FEMALE_NAMES);
    }
    const p: Person = {
      id: this.persons.length,
      first: given,
      middle,
      last,
      suffix: male && this.chance(0.02) ? this.pick(['Jr', 'Jr', 'II', 'III']) : null,
      male,
      birthYear,
      inData,
      death: null,
      stints: [],
      phones: [],
      household: null,
      parents: [],
      children: [],
      partners: [],
    };
    this.persons.push(p);
    if (inData) this.inData++;
    return p;
  }

  /** Records two people as partners; returns the second. */
  private pair(a: Person, b: Person): Person {
    a.partners.push(b.id);
    b.partners.push(a.id);
    return b;
  }

  /** A surname: a common one (Zipf over the demo list, most common first) or one of the long tail. */
  private surname(): string {
    if (this.chance(COMMON_SURNAME_SHARE)) {
      const r = this.random() * COMMON_SURNAME_WEIGHT;
      const at = COMMON_SURNAME_CUMULATIVE.findIndex((c) => r < c);
      return DEMO_LAST_NAMES[at < 0 ? DEMO_LAST_NAMES.length - 1 : at]!;
    }
    return this.pick(TAIL_SURNAMES);
  }

  /** A mobile for a new adult (`from`: when they enter the world). */
  private mobileFor(p: Person, from: number, place: number): void {
    if (p.birthYear < 1945 && this.chance(0.25)) return; // never has one
    const adopt = p.birthYear < 1960 ? from + this.int(0, 90) : from + this.int(-24, 18);
    const npa = this.chance(0.65) ? this.places[place]!.info.areaCode : this.pick(MORE_AREA_CODES);
    p.phones.push({ e164: this.phones.take(npa), type: 'mobile', from: adopt, to: null });
    if (this.chance(0.04))
      p.phones.push({
        e164: this.phones.take(this.pick(MORE_AREA_CODES)),
        type: 'voip',
        from: Math.max(adopt, from) + this.int(0, 60),
        to: this.chance(0.4) ? null : Math.max(adopt, from) + this.int(61, 140),
      });
  }

  private household(head: Person, spouse: Person | null, kids: Person[], place: number): Household {
    const h: Household = {
      id: this.households.length,
      members: [head.id, ...(spouse === null ? [] : [spouse.id]), ...kids.map((k) => k.id)],
      head: head.id,
      spouse: spouse?.id ?? null,
      place,
      home: null,
      movedIn: 0,
      landline: null,
      investor: false,
      rentals: 0,
      moves: 0,
    };
    for (const id of h.members) this.persons[id]!.household = h.id;
    this.households.push(h);
    return h;
  }

  /** A new household of the world: a head, maybe a spouse, maybe grown children. */
  private newHousehold(from: number, initial: boolean): Household | null {
    if (this.inData >= this.options.people) return null;
    const year = yearOf(from);
    const headBorn = initial
      ? this.int(1932, 1987)
      : this.chance(0.75)
        ? Math.min(year - 19, this.int(1970, 2004))
        : this.int(1940, year - 25);
    const male = this.chance(0.55);
    const last = this.surname();
    const head = this.person(male, last, headBorn, true);
    let spouse: Person | null = null;
    if (this.inData < this.options.people && this.chance(headBorn < 1990 ? 0.62 : 0.4)) {
      const roll = this.random();
      const other = this.surname();
      const spouseLast = roll < 0.78 ? last : roll < 0.93 || /[ -]/.test(last + other) ? other : `${last}-${other}`;
      spouse = this.person(!male, spouseLast, headBorn + this.int(-6, 6), true);
      this.pair(head, spouse);
      spouse.birthYear = Math.min(spouse.birthYear, year - 18);
    }
    const kids: Person[] = [];
    const parentBorn = Math.min(head.birthYear, spouse?.birthYear ?? 9999);
    if (parentBorn <= 1966 && this.chance(initial ? 0.3 : 0.1)) {
      const count = this.chance(0.3) ? 2 : 1;
      for (let k = 0; k < count && this.inData < this.options.people; k++) {
        const born = Math.min(year - 18, parentBorn + this.int(22, 36));
        const kidMale = this.chance(0.5);
        const named = kidMale && head.male && this.chance(0.12);
        const kid = this.person(kidMale, last, born, true, named ? head.first : undefined);
        if (named) {
          kid.middle = head.middle;
          kid.suffix = 'Jr';
          if (this.chance(0.6)) head.suffix = 'Sr';
        }
        for (const parent of [head, spouse]) {
          if (parent === null) continue;
          kid.parents.push(parent.id);
          parent.children.push(kid.id);
        }
        kids.push(kid);
      }
    }
    const place = this.chance(0.9) ? this.pick(this.homePlaces) : this.int(0, this.places.length - 1);
    const h = this.household(head, spouse, kids, place);
    for (const id of h.members) this.mobileFor(this.persons[id]!, from, place);
    h.investor = headBorn <= year - 28 && this.chance(initial ? 0.12 : 0.07);
    return h;
  }

  // --- places, parcels --------------------------------------------------------------------------
  private newStreet(place: number): { number: number; street: string; suffix: string } {
    const state = this.places[place]!;
    for (;;) {
      const number = this.chance(0.15) ? this.int(1, 99) : this.int(100, 9999);
      const street = this.pick(DEMO_STREETS);
      const suffix = this.pick(DEMO_SUFFIXES);
      const key = `${number}|${street}|${suffix}`;
      if (state.used.has(key)) continue;
      state.used.add(key);
      return { number, street, suffix };
    }
  }

  private newParcel(place: number, units: number, holder: Holder, acquired: number, mailing: Mailing): Parcel {
    const parcel: Parcel = {
      id: this.parcels.length,
      place,
      dwellings: [],
      holder,
      acquired,
      mailing,
      rental: false,
      forSale: null,
      settle: null,
    };
    const street = this.newStreet(place);
    const letters = units <= 4 && this.chance(0.5);
    for (let u = 0; u < units; u++) {
      const unit = units === 1 ? null : letters ? String.fromCharCode(65 + u) : String(u < 9 ? u + 1 : 100 + u);
      const d: Dwelling = { id: this.dwellings.length, place, ...street, unit, parcel: parcel.id, occupant: null };
      this.dwellings.push(d);
      parcel.dwellings.push(d.id);
    }
    this.parcels.push(parcel);
    return parcel;
  }

  private peopleHolder(ids: number[], trust: TrustStyle | null = null): Holder {
    return { type: 'people', ids, trust, style: Math.floor(this.random() * 0x7fffffff) };
  }

  private owners(h: Household): number[] {
    return h.spouse === null ? [h.head] : [h.head, h.spouse];
  }

  private poBox(place: number): Mailing {
    return { kind: 'pobox', place, box: this.int(1, 9999) };
  }

  private officeMailing(): Mailing {
    const place = this.chance(0.7) ? this.pick(this.homePlaces) : this.int(0, this.places.length - 1);
    if (this.chance(0.35)) return this.poBox(place);
    const line = `${this.int(100, 9999)} ${this.pick(OFFICE_STREETS)} ${this.pick(['Pkwy', 'Blvd', 'Dr', 'Ave', 'Ctr'])}${
      this.chance(0.6) ? ` Ste ${this.int(1, 9) * 100 + this.int(0, 20)}` : ''
    }`;
    return { kind: 'street', place, line };
  }

  private companyName(): string {
    const roll = this.random();
    const form = this.pick(COMPANY_FORMS);
    if (roll < 0.55) return `${this.pick(COMPANY_WORDS)} ${this.pick(COMPANY_KINDS)} ${form}`;
    if (roll < 0.7) {
      const s = this.newStreet(this.pick(this.homePlaces));
      return `${s.number} ${foldAscii(s.street)} ${foldAscii(s.suffix)} ${form === 'CO' ? 'LLC' : form}`;
    }
    if (roll < 0.85) {
      const a = foldAscii(this.surname()).replace(/['.]/g, '');
      return this.chance(0.5) ? `${a} ${this.pick(COMPANY_KINDS)} ${form}` : `${a} FAMILY HOLDINGS LLC`;
    }
    if (roll < 0.93)
      return `${this.pick(MALE_NAMES)[0]} & ${this.pick(FEMALE_NAMES)[0]} ${this.pick(COMPANY_KINDS)} LLC`.toUpperCase();
    return this.pick([
      `${this.pick(COMPANY_WORDS)} SFR BORROWER ${this.int(1, 9)} LLC`,
      `${this.pick(COMPANY_WORDS)} HOMES ${this.int(2, 12)} LP`,
      'FEDERAL NATIONAL MORTGAGE ASSOCIATION',
      'FEDERAL HOME LOAN MORTGAGE CORP',
      `${this.pick(['US', 'WELLS FARGO', 'DEUTSCHE'])} BANK NATIONAL TRUST CO TR`,
    ]);
  }

  private company(): number {
    if (this.companies.length > 0 && this.chance(0.7)) return this.int(0, this.companies.length - 1);
    this.companies.push({ name: this.companyName(), mailing: this.officeMailing() });
    return this.companies.length - 1;
  }

  private publicName(type: 'government' | 'organization', place: number): string {
    const city = foldAscii(this.places[place]!.info.city).replace(/\./g, '');
    const state = STATE_NAMES.get(this.places[place]!.info.state) ?? this.places[place]!.info.state;
    if (type === 'government')
      return this.pick([
        `CITY OF ${city}`,
        `HOUSING AUTHORITY OF THE CITY OF ${city}`,
        `${city} HOUSING AUTHORITY`,
        `STATE OF ${state}`,
        'SECRETARY OF HOUSING AND URBAN DEVELOPMENT',
        `${city} HOUSING TRUST FUND CORPORATION`,
        `${city} REDEVELOPMENT AGENCY`,
        `${city} INDEPENDENT SCHOOL DISTRICT`,
      ]);
    return this.pick([
      `FIRST BAPTIST CHURCH OF ${city}`,
      `ST ${this.pick(SAINTS)} CATHOLIC CHURCH`,
      `GRACE COMMUNITY CHURCH OF ${city}`,
      `TEMPLE BETH ${this.pick(['EL', 'SHALOM', 'ISRAEL'])}`,
      `${foldAscii(this.pick(DEMO_STREETS))} ESTATES CONDOMINIUM ASSOCIATION`,
      `${foldAscii(this.pick(DEMO_STREETS))} HOMEOWNERS ASSN`,
      `TRUSTEES OF ${city} COLLEGE`,
      `${city} UNIVERSITY`,
    ]);
  }

  // --- living somewhere ---------------------------------------------------------------------------
  private occupy(h: Household, dwelling: number, m: number): void {
    const d = this.dwellings[dwelling]!;
    d.occupant = h.id;
    h.home = dwelling;
    h.place = d.place;
    h.movedIn = m;
    for (const id of h.members) {
      const p = this.persons[id]!;
      // People appear in the data as adults.
      p.stints.push({ dwelling, from: Math.max(m, monthIndex(p.birthYear + 18, 1)), to: null });
    }
    const year = yearOf(m);
    const headBorn = this.persons[h.head]!.birthYear;
    const landline =
      Math.min(0.9, Math.max(0.04, 0.72 - 0.045 * (year - START_YEAR))) +
      (headBorn < 1955 ? 0.2 : 0) +
      (headBorn < 1945 ? 0.3 : 0);
    if (h.landline !== null) return; // kept (ported) from the last home
    if (this.chance(landline) || h.members.every((id) => !this.hasMobile(this.persons[id]!, m))) {
      h.landline = this.phones.take(this.places[d.place]!.info.areaCode);
      for (const id of h.members)
        this.persons[id]!.phones.push({ e164: h.landline, type: 'landline', from: m, to: null });
    }
  }

  private hasMobile(p: Person, m: number): boolean {
    return p.phones.some((ph) => ph.type === 'mobile' && ph.from <= m + 12 && ph.to === null);
  }

  private endLandline(h: Household, to: number): void {
    if (h.landline === null) return;
    for (const id of h.members) {
      const phone = this.persons[id]!.phones.find((ph) => ph.e164 === h.landline && ph.to === null);
      if (phone !== undefined) phone.to = Math.max(phone.from, to);
    }
    h.landline = null;
  }

  /** Leaves the current home (the household moves or dies out): the home's fate. */
  private vacate(h: Household, m: number, keepLandline: boolean): Dwelling | null {
    if (h.home === null) return null;
    const d = this.dwellings[h.home]!;
    for (const id of h.members) {
      const stint = this.persons[id]!.stints.at(-1);
      if (stint !== undefined && stint.to === null) stint.to = Math.max(stint.from, m - 1);
    }
    if (!keepLandline) this.endLandline(h, m - 1);
    d.occupant = null;
    h.home = null;
    const parcel = this.parcels[d.parcel]!;
    if (parcel.rental) this.places[d.place]!.vacant.push(d.id);
    else if (!this.ownedBy(parcel, h) && parcel.forSale === null && parcel.settle === null)
      parcel.settle = m + this.int(3, 24); // an heir leaves the estate's house
    return d;
  }

  private ownedBy(parcel: Parcel, h: Household): boolean {
    return parcel.holder.type === 'people' && parcel.holder.ids.some((id) => h.members.includes(id));
  }

  private takeVacant(place: number): number | null {
    const vacant = this.places[place]!.vacant;
    while (vacant.length > 0) {
      const i = Math.floor(this.random() * vacant.length);
      const id = vacant[i]!;
      vacant[i] = vacant[vacant.length - 1]!;
      vacant.pop();
      const d = this.dwellings[id]!;
      if (d.occupant === null && this.parcels[d.parcel]!.rental) return id;
    }
    return null;
  }

  private takeForSale(place: number): Parcel | null {
    const list = this.places[place]!.forSale;
    while (list.length > 0) {
      const i = Math.floor(this.random() * list.length);
      const id = list[i]!;
      list[i] = list[list.length - 1]!;
      list.pop();
      const parcel = this.parcels[id]!;
      if (parcel.forSale !== null && parcel.dwellings.every((d) => this.dwellings[d]!.occupant === null)) {
        parcel.forSale = null;
        return parcel;
      }
    }
    return null;
  }

  /** A rental for a household to move into: a vacant one, or a new one with a landlord. */
  private rental(place: number, m: number): number {
    if (this.chance(0.85)) {
      const vacant = this.takeVacant(place);
      if (vacant !== null) return vacant;
    }
    const roll = this.random();
    let parcel: Parcel;
    if (roll < 0.3) {
      const investor = this.investorFor(m);
      if (investor !== null) {
        parcel = this.investorBuys(investor, m, place);
      } else {
        parcel = this.outsideLandlord(place, m);
      }
    } else if (roll < 0.52) {
      parcel = this.outsideLandlord(place, m);
    } else if (roll < 0.9) {
      const company = this.company();
      const units = this.chance(0.25) ? this.int(4, 12) : 1;
      parcel = this.newParcel(
        place,
        units,
        { type: 'company', company },
        m - this.int(0, 60),
        this.companies[company]!.mailing,
      );
    } else if (roll < 0.97) {
      parcel = this.newParcel(
        place,
        this.chance(0.6) ? this.int(2, 8) : 1,
        { type: 'government', name: this.publicName('government', place) },
        m - this.int(0, 200),
        this.officeMailing(),
      );
    } else {
      parcel = this.newParcel(
        place,
        1,
        { type: 'organization', name: this.publicName('organization', place) },
        m - this.int(0, 200),
        this.chance(0.5) ? { kind: 'property' } : this.officeMailing(),
      );
    }
    parcel.rental = true;
    const [first, ...others] = parcel.dwellings;
    this.places[place]!.vacant.push(...others);
    return first!;
  }

  /** A landlord the people data lacks (a person or a couple), with an address elsewhere. */
  private outsideLandlord(place: number, m: number): Parcel {
    const last = this.surname();
    const born = this.int(1935, 1990);
    const a = this.person(this.chance(0.6), last, born, false);
    const ids = [a.id];
    if (this.chance(0.45)) ids.push(this.pair(a, this.person(!a.male, last, born + this.int(-5, 5), false)).id);
    const home = this.pick(this.places.map((_, i) => i));
    const street = this.newStreet(home);
    const mailing: Mailing = {
      kind: 'street',
      place: home,
      line: `${street.number} ${street.street} ${street.suffix}`,
    };
    const roll = this.random();
    const holder: Holder =
      roll < 0.8
        ? this.peopleHolder(ids)
        : roll < 0.9
          ? this.peopleHolder(ids, this.pick(['family', 'trustee', 'named'] as const))
          : { type: 'company', company: this.llcFor(a, mailing) };
    if (holder.type === 'people' && holder.trust === 'named') holder.ids = [a.id];
    return this.newParcel(place, this.chance(0.15) ? this.int(2, 4) : 1, holder, m - this.int(0, 120), mailing);
  }

  private llcFor(p: Person, mailing: Mailing): number {
    const last = foldAscii(p.last).replace(/['.]/g, '');
    const name = this.chance(0.5)
      ? `${last} ${this.pick(['PROPERTIES', 'RENTALS', 'HOLDINGS', 'INVESTMENTS'])} LLC`
      : `${this.pick(COMPANY_WORDS)} ${this.pick(COMPANY_KINDS)} ${this.pick(['LLC', 'LLC', 'INC'])}`;
    this.companies.push({ name, mailing: this.chance(0.7) ? mailing : this.officeMailing() });
    return this.companies.length - 1;
  }

  private investorFor(m: number): Household | null {
    const candidates = this.households.filter(
      (h) => h.investor && h.home !== null && h.rentals < 10 && this.persons[h.head]!.death === null,
    );
    if (candidates.length > 0 && this.chance(0.8)) return this.pick(candidates);
    // Someone becomes a landlord.
    for (let tries = 0; tries < 20; tries++) {
      const h = this.pick(this.households);
      if (h.home === null || h.investor) continue;
      if (this.persons[h.head]!.birthYear > yearOf(m) - 28) continue;
      h.investor = true;
      return h;
    }
    return null;
  }

  /** An investor household buys a rental (held in their names, a trust, or an LLC). */
  private investorBuys(h: Household, m: number, place: number): Parcel {
    h.rentals++;
    const home = h.home === null ? null : this.dwellings[h.home]!;
    const mailing: Mailing = home === null ? { kind: 'property' } : { kind: 'dwelling', dwelling: home.id };
    const roll = this.random();
    // A couple's rental is in both names or the head's; a couple's trust has them both as trustees.
    const holder: Holder =
      roll < 0.72
        ? this.peopleHolder(this.chance(0.7) ? this.owners(h) : [h.head])
        : roll < 0.84
          ? this.peopleHolder(this.owners(h), this.pick(['family', 'trustee', 'named'] as const))
          : { type: 'company', company: this.llcFor(this.persons[h.head]!, mailing) };
    if (holder.type === 'people' && holder.trust === 'named') holder.ids = [h.head];
    const bought = this.chance(0.5) ? this.takeForSale(place) : null;
    if (bought !== null) {
      bought.holder = holder;
      bought.acquired = m;
      bought.mailing = holder.type === 'company' ? this.companies[holder.company]!.mailing : mailing;
      bought.rental = true;
      bought.settle = null;
      // Its dwellings are vacant; the first goes to whoever asked, the rest wait for tenants.
      return bought;
    }
    const units = this.chance(0.15) ? this.int(2, 4) : 1;
    return this.newParcel(
      place,
      units,
      holder,
      m,
      holder.type === 'company' ? this.companies[holder.company]!.mailing : mailing,
    );
  }

  /** A home for a household: bought (a house for sale, or a new one) or rented. */
  private findHome(h: Household, m: number, place: number, ownedBefore: boolean): number {
    const age = yearOf(m) - this.persons[h.head]!.birthYear;
    const own = ownedBefore ? 0.75 : age < 25 ? 0.05 : age < 30 ? 0.2 : age < 35 ? 0.35 : age < 45 ? 0.5 : 0.6;
    if (!this.chance(own)) return this.rental(place, m);
    const trust = age >= 50 && this.chance(0.08) ? this.pick(['family', 'trustee', 'named'] as const) : null;
    const holder = this.peopleHolder(trust === 'named' ? [h.head] : this.owners(h), trust);
    const bought = this.chance(0.6) ? this.takeForSale(place) : null;
    const parcel = bought ?? this.newParcel(place, 1, holder, m, { kind: 'property' });
    parcel.holder = holder;
    parcel.acquired = m;
    parcel.mailing = this.chance(0.04) ? this.poBox(place) : { kind: 'property' };
    parcel.rental = false;
    parcel.settle = null;
    return parcel.dwellings[0]!;
  }

  /** The owned home a household leaves: sold (it waits for a buyer) or kept and rented out. */
  private leaveOwned(parcel: Parcel, h: Household, m: number, next: Dwelling | null): void {
    const keep = this.chance(h.investor ? 0.45 : 0.22);
    const roll = this.random();
    if (keep) {
      parcel.rental = true;
      this.places[parcel.place]!.vacant.push(...parcel.dwellings);
      parcel.mailing =
        next === null || roll < 0.22
          ? { kind: 'property' }
          : roll < 0.42
            ? this.poBox(next.place)
            : { kind: 'dwelling', dwelling: next.id };
    } else {
      parcel.forSale = m;
      this.places[parcel.place]!.forSale.push(parcel.id);
      if (next !== null && roll < 0.5) parcel.mailing = { kind: 'dwelling', dwelling: next.id };
    }
  }

  /** The household moves (together). */
  private move(h: Household, m: number): void {
    const old = h.home === null ? null : this.dwellings[h.home]!;
    const oldParcel = old === null ? null : this.parcels[old.parcel]!;
    const owned = oldParcel !== null && !oldParcel.rental && this.ownedBy(oldParcel, h);
    const place = this.chance(0.75)
      ? h.place
      : this.chance(0.85)
        ? this.pick(this.homePlaces)
        : this.int(0, this.places.length - 1);
    const keepLandline = h.landline !== null && place === h.place && this.chance(0.1);
    this.vacate(h, m, keepLandline);
    const next = this.dwellings[this.findHome(h, m, place, owned)]!;
    if (owned && oldParcel !== null) this.leaveOwned(oldParcel, h, m, next);
    this.occupy(h, next.id, m);
    h.moves++;
    // The roll's mailing address of what they own elsewhere follows them, or not.
    if (old !== null) this.followMailing(h, old.id, next.id);
    for (const id of h.members) {
      const p = this.persons[id]!;
      if (place !== old?.place && this.chance(0.08)) this.newMobile(p, m, place);
    }
  }

  private followMailing(h: Household, from: number, to: number): void {
    for (const parcel of this.parcels) {
      if (parcel.mailing.kind !== 'dwelling' || parcel.mailing.dwelling !== from) continue;
      if (!this.ownedBy(parcel, h) && parcel.holder.type !== 'company') continue;
      if (this.chance(0.6)) parcel.mailing = { kind: 'dwelling', dwelling: to };
    }
  }

  private newMobile(p: Person, m: number, place: number): void {
    const open = p.phones.find((ph) => ph.type === 'mobile' && ph.to === null && ph.from <= m);
    if (open === undefined) return;
    open.to = m - 1 < open.from ? open.from : m - 1;
    const npa = this.chance(0.7) ? this.places[place]!.info.areaCode : this.pick(MORE_AREA_CODES);
    p.phones.push({ e164: this.phones.take(npa), type: 'mobile', from: m, to: null });
  }

  /** A grown child leaves home; sometimes with a partner from outside the world. */
  private leaveHome(kid: Person, from: Household, m: number): void {
    from.members = from.members.filter((id) => id !== kid.id);
    const stint = kid.stints.at(-1);
    if (stint !== undefined && stint.to === null) stint.to = Math.max(stint.from, m - 1);
    const landline = kid.phones.find((ph) => ph.type === 'landline' && ph.to === null);
    if (landline !== undefined) landline.to = Math.max(landline.from, m - 1);
    let partner: Person | null = null;
    if (this.inData < this.options.people && this.chance(0.3)) {
      partner = this.person(
        !kid.male,
        this.chance(0.6) ? kid.last : this.surname(),
        kid.birthYear + this.int(-4, 4),
        true,
      );
      this.pair(kid, partner);
      this.mobileFor(partner, m, from.place);
    }
    const h = this.household(kid, partner, [], from.place);
    h.place = this.chance(0.7) ? from.place : this.pick(this.homePlaces);
    this.occupy(h, this.findHome(h, m, h.place, false), m);
  }

  private die(p: Person, m: number): void {
    p.death = m;
    for (const stint of p.stints) if (stint.to === null) stint.to = Math.max(stint.from, m);
    for (const phone of p.phones) {
      if (phone.to === null) phone.to = Math.max(phone.from, m);
    }
    p.phones = p.phones.filter((ph) => ph.from <= m);
    const h = p.household === null ? null : this.households[p.household]!;
    if (h === null) return;
    h.members = h.members.filter((id) => id !== p.id);
    if (h.spouse === p.id) h.spouse = null;
    if (h.head === p.id) {
      if (h.spouse !== null) {
        h.head = h.spouse;
        h.spouse = null;
      } else if (h.members.length > 0) h.head = h.members[0]!;
    }
    if (h.members.length > 0) return;
    // The household died out: its home, and what the dead owned elsewhere.
    const home = h.home === null ? null : this.dwellings[h.home]!;
    if (home !== null) {
      home.occupant = null;
      h.home = null;
      const parcel = this.parcels[home.parcel]!;
      if (parcel.rental) this.places[home.place]!.vacant.push(home.id);
    }
    if (h.landline !== null) h.landline = null;
    for (const parcel of this.parcels) {
      if (parcel.holder.type !== 'people' || !parcel.holder.ids.includes(p.id)) continue;
      if (parcel.holder.ids.some((id) => this.persons[id]!.death === null)) continue;
      const occupied = home !== null && parcel.id === home.parcel;
      if (parcel.holder.trust === null && this.chance(occupied ? 0.65 : 0.5)) {
        parcel.holder = { type: 'estate', decedent: p.id, style: Math.floor(this.random() * 0x7fffffff) };
        const heir = this.heirs(p).find((id) => this.persons[id]!.household !== null);
        if (heir !== undefined && this.chance(0.5)) {
          const hh = this.households[this.persons[heir]!.household!]!;
          if (hh.home !== null) parcel.mailing = { kind: 'dwelling', dwelling: hh.home };
        }
      }
      if (occupied) {
        parcel.settle = m + this.int(3, 30);
        this.heirMovesIn(p, parcel, m);
      }
    }
  }

  /** The spouse and children alive. */
  private heirs(p: Person): number[] {
    const out: number[] = [];
    for (const id of [...p.children]) if (this.persons[id]!.death === null) out.push(id);
    return out;
  }

  private heirMovesIn(p: Person, parcel: Parcel, m: number): void {
    if (m >= NOW - 1 || !this.chance(0.2)) return;
    for (const id of this.heirs(p)) {
      const heir = this.persons[id]!;
      const h = heir.household === null ? null : this.households[heir.household]!;
      if (h === null || h.home === null || h.members.some((id) => this.persons[id]!.stints.length >= 5)) continue;
      const current = this.parcels[this.dwellings[h.home]!.parcel]!;
      if (!current.rental || m - h.movedIn < 3) continue;
      const target = this.dwellings[parcel.dwellings[0]!]!;
      const keepLandline = h.landline !== null && target.place === h.place && this.chance(0.1);
      const old = h.home;
      this.vacate(h, m + 1, keepLandline);
      this.occupy(h, target.id, m + 1);
      h.moves++;
      this.followMailing(h, old, target.id);
      parcel.settle = null; // the family keeps it while they live there
      return;
    }
  }

  /** An unsold house or a settled estate goes to an outside buyer (not in the people data). */
  private outsideBuyer(parcel: Parcel, m: number): void {
    const list = this.places[parcel.place]!.forSale;
    const at = list.indexOf(parcel.id);
    if (at >= 0) list.splice(at, 1);
    parcel.forSale = null;
    parcel.settle = null;
    const last = this.surname();
    const born = this.int(1950, 1998);
    const a = this.person(this.chance(0.55), last, born, false);
    const ids = [a.id];
    if (this.chance(0.55)) ids.push(this.pair(a, this.person(!a.male, last, born + this.int(-4, 4), false)).id);
    parcel.acquired = m;
    if (this.chance(0.55)) {
      // They live there, outside the people data.
      parcel.holder = this.peopleHolder(ids);
      parcel.mailing = { kind: 'property' };
      parcel.rental = false;
      for (const d of parcel.dwellings) this.dwellings[d]!.occupant = -1;
    } else {
      parcel.holder = this.chance(0.85) ? this.peopleHolder(ids) : { type: 'company', company: this.company() };
      const home = this.int(0, this.places.length - 1);
      const s = this.newStreet(home);
      parcel.mailing =
        parcel.holder.type === 'company'
          ? this.companies[parcel.holder.company]!.mailing
          : { kind: 'street', place: home, line: `${s.number} ${s.street} ${s.suffix}` };
      parcel.rental = true;
      this.places[parcel.place]!.vacant.push(...parcel.dwellings);
    }
  }

  // --- the simulation ---------------------------------------------------------------------------
  build(): OwnerWorld {
    const people = this.options.people;
    const initial = Math.max(1, Math.round(people * 0.3));
    for (let i = 0; i < initial; i++) {
      const h = this.newHousehold(0, true);
      if (h === null) break;
      const since = -this.int(0, 240);
      const ownedBefore = yearOf(since) - this.persons[h.head]!.birthYear >= 30 && this.chance(0.5);
      this.occupy(h, this.findHome(h, since, h.place, ownedBefore), since);
      if (h.investor) {
        const rentals = this.int(1, 4);
        for (let r = 0; r < rentals; r++) {
          const parcel = this.investorBuys(h, since + this.int(0, Math.max(0, -since)), h.place);
          parcel.rental = true;
          this.places[parcel.place]!.vacant.push(...parcel.dwellings);
        }
      }
    }
    const incomers = (people * 0.32) / NOW;
    for (let m = 1; m <= NOW; m++) {
      let arrivals = incomers;
      while (arrivals > 0) {
        if (this.random() < Math.min(1, arrivals)) {
          const h = this.newHousehold(m, false);
          if (h !== null) this.occupy(h, this.findHome(h, m, h.place, false), m);
        }
        arrivals -= 1;
      }
      this.monthOfLife(m);
    }
    this.fillUp();
    return this.emit();
  }

  private monthOfLife(m: number): void {
    const year = yearOf(m);
    const count = this.households.length;
    for (let i = 0; i < count; i++) {
      const h = this.households[i]!;
      if (h.members.length === 0) continue;
      // Deaths.
      for (const id of [...h.members]) {
        const p = this.persons[id]!;
        const age = year - p.birthYear;
        const yearly = age < 60 ? 0.003 : age < 70 ? 0.012 : age < 80 ? 0.03 : 0.08;
        if (this.chance(yearly / 12)) this.die(p, m);
      }
      if (h.members.length === 0 || h.home === null) continue;
      // Mobiles replaced now and then.
      for (const id of h.members) if (this.chance(0.0012)) this.newMobile(this.persons[id]!, m, h.place);
      // Landlines cut.
      if (h.landline !== null && this.chance(0.004)) this.endLandline(h, m);
      // Grown children leave.
      for (const id of [...h.members]) {
        if (id === h.head || id === h.spouse) continue;
        const kid = this.persons[id]!;
        if (year - kid.birthYear >= 19 && m - h.movedIn >= 3 && kid.stints.length < 5 && this.chance(0.015))
          this.leaveHome(kid, h, m);
      }
      // A partner moves in with someone single.
      if (
        h.spouse === null &&
        this.inData < this.options.people &&
        year - this.persons[h.head]!.birthYear < 60 &&
        this.chance(0.0025)
      ) {
        const head = this.persons[h.head]!;
        const partner = this.person(
          !head.male,
          this.chance(0.5) ? head.last : this.surname(),
          head.birthYear + this.int(-5, 5),
          true,
        );
        this.mobileFor(partner, m, h.place);
        partner.household = h.id;
        h.members.push(partner.id);
        h.spouse = partner.id;
        this.pair(head, partner);
        partner.stints.push({ dwelling: h.home, from: m, to: null });
        if (h.landline !== null) partner.phones.push({ e164: h.landline, type: 'landline', from: m, to: null });
      }
      // Moving.
      const parcel = this.parcels[this.dwellings[h.home]!.parcel]!;
      const owner = !parcel.rental && this.ownedBy(parcel, h);
      const hazard = owner ? 0.0045 : 0.016;
      const maxStints = Math.max(...h.members.map((id) => this.persons[id]!.stints.length));
      if (maxStints < 5 && m - h.movedIn >= 3 && this.chance(hazard)) this.move(h, m);
      // Older owners put their home into a revocable trust.
      else if (
        owner &&
        parcel.holder.type === 'people' &&
        parcel.holder.trust === null &&
        year - this.persons[h.head]!.birthYear >= 55 &&
        this.chance(0.0007)
      ) {
        const style = this.pick(['family', 'family', 'trustee', 'named'] as const);
        parcel.holder = this.peopleHolder(style === 'named' ? [h.head] : this.owners(h), style);
        parcel.acquired = m;
      }
      // A second home (a cabin, a condo near the children), never lived in.
      if (owner && year - this.persons[h.head]!.birthYear >= 45 && this.chance(0.0008)) {
        const place = this.pick(this.homePlaces);
        const trust = parcel.holder.type === 'people' ? parcel.holder.trust : null;
        const second = this.newParcel(
          place,
          1,
          this.peopleHolder(this.owners(h), trust === 'named' ? null : trust),
          m,
          {
            kind: 'dwelling',
            dwelling: h.home,
          },
        );
        if (this.chance(0.5)) {
          second.rental = true;
          this.places[place]!.vacant.push(...second.dwellings);
        } else for (const d of second.dwellings) this.dwellings[d]!.occupant = -1; // kept for themselves
      }
      // Investors buy.
      if (h.investor && h.rentals < 10 && this.chance(0.01)) {
        const place = this.chance(0.7) ? h.place : this.pick(this.homePlaces);
        const bought = this.investorBuys(h, m, place);
        bought.rental = true;
        this.places[bought.place]!.vacant.push(...bought.dwellings);
      }
    }
    // Houses that wait: unsold ones, settled estates.
    for (const parcel of this.parcels) {
      if (parcel.forSale !== null && m - parcel.forSale > 4 && this.chance(0.12)) this.outsideBuyer(parcel, m);
      else if (
        parcel.settle !== null &&
        m >= parcel.settle &&
        parcel.dwellings.every((d) => this.dwellings[d]!.occupant === null) &&
        this.chance(0.08)
      ) {
        if (this.chance(0.5)) {
          parcel.settle = null;
          parcel.forSale = m;
          this.places[parcel.place]!.forSale.push(parcel.id);
        } else this.outsideBuyer(parcel, m);
      }
    }
  }

  /**
   * Parcels the simulation leaves out of a roll: vacant lots and houses of public bodies and
   * churches, and homes of people the data lacks, up to about 1.4 parcels a person.
   */
  private fillUp(): void {
    const target = Math.round(this.options.people * 1.4);
    while (this.parcels.length < target) {
      const place = this.pick(this.homePlaces);
      const roll = this.random();
      if (roll < 0.04) {
        this.newParcel(
          place,
          1,
          { type: 'government', name: this.publicName('government', place) },
          -this.int(0, 400),
          this.officeMailing(),
        );
      } else if (roll < 0.06) {
        this.newParcel(
          place,
          1,
          { type: 'organization', name: this.publicName('organization', place) },
          -this.int(0, 400),
          this.officeMailing(),
        );
      } else if (roll < 0.3) {
        const company = this.company();
        this.newParcel(
          place,
          1,
          { type: 'company', company },
          NOW - this.int(0, 200),
          this.companies[company]!.mailing,
        );
      } else {
        // Owner-occupied or rented out by people the people data lacks.
        const parcel = this.newParcel(place, 1, { type: 'company', company: 0 }, NOW, { kind: 'property' });
        parcel.forSale = NOW;
        this.outsideBuyer(parcel, NOW - this.int(0, 300));
      }
    }
  }

  // --- output -----------------------------------------------------------------------------------
  private emit(): OwnerWorld {
    const styleRandom = (salt: number): Random => mulberry32(hashString(`${this.options.seed}|${salt}`));
    // Person ids: p + a number, in the order of the data file (shuffled: no hint in the ids).
    const inData = this.persons.filter((p) => p.inData);
    const order = inData.map((p) => p.id);
    this.shuffle(order);
    const pid = new Map<number, string>();
    order.forEach((id, i) => pid.set(id, `p${100001 + i}`));

    const peopleOut: OwnerWorldPerson[] = [];
    const truthPeople = new Map<string, PersonTruth>();
    for (const id of order) {
      const p = this.persons[id]!;
      const r = styleRandom(p.id * 2 + 1);
      const { record, truth } = this.personRecord(p, pid.get(id)!, r);
      peopleOut.push(record);
      truthPeople.set(truth.person_id, truth);
    }

    const residentsOf = new Map<number, Set<number>>();
    const formerOf = new Map<number, Set<number>>();
    for (const p of this.persons) {
      for (const s of p.stints) {
        const parcel = this.dwellings[s.dwelling]!.parcel;
        const current = s.to === null && p.death === null;
        const map = current ? residentsOf : formerOf;
        let set = map.get(parcel);
        if (set === undefined) map.set(parcel, (set = new Set()));
        set.add(p.id);
      }
    }

    const sorted = [...this.parcels].sort((a, b) => {
      if (a.place !== b.place) return a.place - b.place;
      const da = this.dwellings[a.dwellings[0]!]!;
      const db = this.dwellings[b.dwellings[0]!]!;
      return da.street < db.street ? -1 : da.street > db.street ? 1 : da.number - db.number;
    });
    const parcelsOut: OwnerWorldParcel[] = [];
    const truthParcels: ParcelTruth[] = [];
    for (const parcel of sorted) {
      const r = styleRandom(parcel.id * 2);
      const residents = [...(residentsOf.get(parcel.id) ?? [])].filter((id) => this.persons[id]!.inData);
      const former = [...(formerOf.get(parcel.id) ?? [])].filter(
        (id) => this.persons[id]!.inData && !residents.includes(id),
      );
      const { record, truth } = this.parcelRecord(parcel, r, residents, former, pid);
      parcelsOut.push(record);
      truthParcels.push(truth);
    }
    return { people: peopleOut, parcels: parcelsOut, truth: { parcels: truthParcels, people: truthPeople } };
  }

  /** A month written the way data sources write dates: mostly YYYY-MM, some YYYY-MM-DD, old ones YYYY. */
  private date(m: number, r: Random, allowYear: boolean, allowDay = true): string {
    const roll = r();
    if (allowYear && m < NOW - 48 && roll < 0.1) return String(yearOf(m));
    if (allowDay && roll > 0.85) return `${yearOf(m)}-${pad2(monthOf(m))}-${pad2(1 + Math.floor(r() * 28))}`;
    return `${yearOf(m)}-${pad2(monthOf(m))}`;
  }

  private addressLine(d: Dwelling, r: Random): string {
    const suffix = r() < 0.15 ? (LONG_SUFFIX[d.suffix] ?? d.suffix) : d.suffix;
    let line = `${d.number} ${d.street} ${suffix}`;
    if (d.unit !== null) {
      const roll = r();
      line += roll < 0.5 ? ` Apt ${d.unit}` : roll < 0.8 ? ` #${d.unit}` : ` Unit ${d.unit}`;
    }
    return line;
  }

  private personRecord(p: Person, id: string, r: Random): { record: OwnerWorldPerson; truth: PersonTruth } {
    const refresh = NOW - Math.floor(r() * 4);
    const end = p.death ?? NOW;
    // Addresses: one per dwelling (a return merges), newest first.
    const byDwelling = new Map<number, { from: number; to: number; open: boolean }>();
    for (const s of p.stints) {
      const open = s.to === null;
      const to = s.to ?? end;
      const seen = byDwelling.get(s.dwelling);
      if (seen === undefined) byDwelling.set(s.dwelling, { from: s.from, to, open });
      else {
        seen.from = Math.min(seen.from, s.from);
        seen.to = Math.max(seen.to, to);
        seen.open ||= open;
      }
    }
    const stints = [...byDwelling.entries()].sort((a, b) => b[1].to - a[1].to);
    const latestEvent = Math.max(
      ...p.stints.map((s) => s.from), // the latest move (a return to an old home merges into its first stint)
      ...p.phones.filter((ph) => ph.from <= end).map((ph) => ph.from),
    );
    const lastSeen = p.death === null ? Math.min(NOW, Math.max(refresh, latestEvent)) : p.death;
    const addresses: OwnerWorldAddress[] = [];
    stints.forEach(([dwelling, s], i) => {
      if (i > 0 && r() < 0.03) return; // an old address the data lacks
      const d = this.dwellings[dwelling]!;
      let listed = this.listed.get(p.id);
      if (listed === undefined) this.listed.set(p.id, (listed = new Set()));
      listed.add(dwelling);
      const place = this.places[d.place]!.info;
      const current = i === 0;
      addresses.push({
        street_address: this.addressLine(d, r),
        city: place.city,
        state: place.state,
        zip_code: place.zip5,
        first_seen: this.date(s.from, r, !current, s.to > s.from),
        // A year alone only where it cannot reach the current address's last_seen.
        last_seen:
          current && s.open
            ? `${yearOf(lastSeen)}-${pad2(monthOf(lastSeen))}`
            : this.date(s.to, r, !current && yearOf(s.to) < yearOf(lastSeen)),
      });
    });
    // Phones: those that began before the data's last look; open ones seen at lastSeen.
    const phones: OwnerWorldPhone[] = [];
    const truthPhones: { e164: string; type: string; last: number }[] = [];
    for (const ph of p.phones) {
      if (ph.from > lastSeen) continue;
      const closed = ph.to !== null && ph.to < lastSeen;
      if (closed && r() < 0.04) continue; // an old number the data lacks
      const last = closed ? ph.to! : lastSeen;
      phones.push({
        number: formatPhone(ph.e164, r),
        type: ph.type,
        first_seen: this.date(ph.from, r, closed, last > ph.from),
        last_seen: closed
          ? this.date(last, r, yearOf(last) < yearOf(lastSeen))
          : `${yearOf(last)}-${pad2(monthOf(last))}`,
      });
      truthPhones.push({ e164: ph.e164, type: ph.type, last });
    }
    const rank = { mobile: 0, landline: 1, voip: 2 } as Record<string, number>;
    const current = [...truthPhones].sort((a, b) => b.last - a.last || rank[a.type]! - rank[b.type]!)[0];
    const first = r() < 0.04 ? (GOES_BY[p.first] ?? p.first) : p.first;
    const record: OwnerWorldPerson = {
      person_id: id,
      first_name: first,
      last_name: p.last,
      addresses,
      phones,
      emails: [],
    };
    if (p.middle !== null) {
      const roll = r();
      if (roll < 0.55) record.middle_name = p.middle;
      else if (roll < 0.72) record.middle_name = p.middle[0]!;
    }
    if (p.suffix !== null && r() < 0.8) record.suffix = p.suffix;
    if (r() < 0.7) record.birth_year = p.birthYear;
    if (p.death !== null && r() < 0.85) record.deceased = true;
    const emails = r() < 0.5 ? (r() < 0.2 ? 2 : 1) : 0;
    for (let e = 0; e < emails; e++) {
      const local = foldAscii(`${first}.${p.last}`)
        .toLowerCase()
        .replace(/[^a-z.]/g, '');
      record.emails.push(`${local}${1 + Math.floor(r() * 98)}@${EMAIL_DOMAINS[Math.floor(r() * 3)]}`);
    }
    return {
      record,
      truth: {
        person_id: id,
        current_phone: current?.e164 ?? null,
        phones: truthPhones.map((t) => t.e164),
        deceased: p.death !== null,
        first_name: first,
        last_name: p.last,
      },
    };
  }

  // --- the roll ---------------------------------------------------------------------------------
  private upper(text: string, c: Convention): string {
    let out = foldAscii(text).replace(/\./g, '');
    if (!c.apostrophes) out = out.replace(/'/g, '');
    if (!c.hyphens) out = out.replace(/-/g, ' ');
    return out.replace(/\s+/g, ' ').trim();
  }

  private rollName(p: Person, c: Convention, r: Random): RollName {
    return {
      first: this.upper(p.first, c),
      mi: p.middle !== null && r() < c.initials ? this.upper(p.middle, c)[0]! : '',
      last: this.upper(p.last, c),
      suffix: p.suffix === null ? '' : this.upper(p.suffix, c),
    };
  }

  private mailingAddress(m: Mailing, parcel: Parcel): { street: string; city: string; state: string; zip: string } {
    const c = this.places[parcel.place]!.convention;
    const situs = this.dwellings[parcel.dwellings[0]!]!;
    const at = (place: number) => this.places[place]!.info;
    switch (m.kind) {
      case 'property': {
        const p = at(parcel.place);
        return {
          street: `${situs.number} ${this.upper(`${situs.street} ${situs.suffix}`, c)}`,
          city: this.upper(p.city, c),
          state: p.state,
          zip: p.zip5,
        };
      }
      case 'dwelling': {
        const d = this.dwellings[m.dwelling]!;
        const p = at(d.place);
        const unit =
          d.unit === null ? '' : ` ${d.unit.length === 1 && /[A-Z]/.test(d.unit) ? 'UNIT' : 'APT'} ${d.unit}`;
        return {
          street: `${d.number} ${this.upper(`${d.street} ${d.suffix}`, c)}${unit}`,
          city: this.upper(p.city, c),
          state: p.state,
          zip: p.zip5,
        };
      }
      case 'street': {
        const p = at(m.place);
        return { street: this.upper(m.line, c), city: this.upper(p.city, c), state: p.state, zip: p.zip5 };
      }
      case 'pobox': {
        const p = at(m.place);
        return { street: `PO BOX ${m.box}`, city: this.upper(p.city, c), state: p.state, zip: p.zip5 };
      }
    }
  }

  private currentDwelling(id: number): number | null {
    const p = this.persons[id]!;
    if (p.death !== null) return null;
    const s = p.stints.at(-1);
    return s !== undefined && s.to === null ? s.dwelling : null;
  }

  private parcelRecord(
    parcel: Parcel,
    r: Random,
    residents: number[],
    former: number[],
    pid: Map<number, string>,
  ): { record: OwnerWorldParcel; truth: ParcelTruth } {
    const c = this.places[parcel.place]!.convention;
    const place = this.places[parcel.place]!;
    const situs = this.dwellings[parcel.dwellings[0]!]!;
    const names = this.ownerNames(parcel, c, r);
    const cut = (s: string): string => (c.width > 0 && s.length > c.width ? s.slice(0, c.width).trimEnd() : s);
    const owner1 = cut(names.line1);
    const owner2 = cut(names.line2);
    // A list keeps what the roll shows: a co-owner whose name the cut removed is gone.
    const visible = `${owner1} ${owner2}`;
    const listOwners = names.list
      .filter((o, i) => i === 0 || visible.includes((o.first_name ?? o.last_name).split(' ')[0]!))
      .map((o, i) => (i === 0 && o.first_name === undefined ? { last_name: owner1 } : o));
    const mailing = this.mailingAddress(parcel.mailing, parcel);
    const situsLine = `${situs.number} ${this.upper(`${situs.street} ${situs.suffix}`, c)}`;
    const ownerIds = names.owners;
    const inDataOwners = ownerIds.filter((id) => this.persons[id]!.inData);
    const ties = new Set(parcel.dwellings);
    if (parcel.mailing.kind === 'dwelling') ties.add(parcel.mailing.dwelling);
    const tied = names.named.some(
      (n) =>
        this.persons[n.id]!.inData &&
        visible.includes(n.last) &&
        (n.first === null || visible.includes(n.first)) &&
        [...(this.listed.get(n.id) ?? [])].some((d) => ties.has(d)),
    );
    const mailingTruth = this.mailingTruth(parcel, ownerIds);
    const situation = this.situation(parcel, ownerIds, inDataOwners, residents, mailingTruth);
    const related = new Set<number>();
    for (const id of ownerIds) {
      const p = this.persons[id]!;
      const siblings = p.parents.flatMap((parent) => this.persons[parent]!.children);
      const household = p.household === null ? [] : this.households[p.household]!.members;
      for (const other of [...p.partners, ...p.children, ...p.parents, ...siblings, ...household])
        if (!ownerIds.includes(other) && this.persons[other]!.inData) related.add(other);
    }
    const record: OwnerWorldParcel = {
      apn: this.apn(parcel, c, r),
      street_address: situsLine,
      city: this.upper(place.info.city, c),
      state: place.info.state,
      zip_code: place.info.zip5,
      owner_name: owner1,
      owner_name_2: owner2,
      owner_1_first_name: '',
      owner_1_last_name: '',
      owner_2_first_name: '',
      owner_2_last_name: '',
      mailing_street_address: mailing.street,
      mailing_city: mailing.city,
      mailing_state: mailing.state,
      mailing_zip_code:
        r() < 0.2 ? `${mailing.zip}-${String(1 + Math.floor(r() * 9998)).padStart(4, '0')}` : mailing.zip,
      owner_occupied: '',
      last_sale_date:
        r() < 0.08
          ? ''
          : `${yearOf(parcel.acquired)}-${pad2(monthOf(parcel.acquired))}-${pad2(1 + Math.floor(r() * 28))}`,
    };
    if (c.split) {
      const [o1, o2] = listOwners;
      record.owner_1_first_name = o1?.first_name ?? '';
      record.owner_1_last_name = o1?.last_name ?? '';
      record.owner_2_first_name = o2?.first_name ?? '';
      record.owner_2_last_name = o2?.last_name ?? '';
    }
    // Rolls derive the flag from the mailing address (or a homestead exemption, which only people have).
    if (c.occupiedFlag && r() > 0.05)
      record.owner_occupied =
        mailingTruth === 'property' &&
        names.kind !== 'company' &&
        names.kind !== 'government' &&
        names.kind !== 'organization'
          ? 'Y'
          : 'N';
    return {
      record,
      truth: {
        apn: record.apn,
        situation,
        recordKind: names.kind,
        owners: inDataOwners.map((id) => pid.get(id)!),
        missingOwners: ownerIds.length - inDataOwners.length,
        tied: inDataOwners.length > 0 && tied,
        residents: residents.map((id) => pid.get(id)!),
        formerResidents: former.map((id) => pid.get(id)!),
        related: [...related].map((id) => pid.get(id)!),
        mailing: mailingTruth,
        units: parcel.dwellings.length,
        listOwners,
      },
    };
  }

  private apn(parcel: Parcel, c: Convention, r: Random): string {
    const seq = ++this.places[parcel.place]!.sequence;
    const area = String(parcel.place).padStart(3, '0');
    const check = Math.floor(r() * 100);
    if (c.apn === 0) return `${area}-${String(seq).padStart(5, '0')}-${pad2(check)}`;
    if (c.apn === 1) return `R${area}${String(seq).padStart(6, '0')}`;
    return `${area}${String(seq).padStart(5, '0')}${pad2(check)}00`;
  }

  private mailingTruth(parcel: Parcel, owners: number[]): MailingTruth {
    const m = parcel.mailing;
    switch (m.kind) {
      case 'property':
        return 'property';
      case 'pobox':
        return 'po_box';
      case 'street':
        return parcel.holder.type === 'people' ? 'elsewhere' : 'office';
      case 'dwelling': {
        if (parcel.dwellings.includes(m.dwelling)) return 'property';
        if (owners.some((id) => this.currentDwelling(id) === m.dwelling)) return 'owner_current';
        if (owners.some((id) => this.persons[id]!.stints.some((s) => s.dwelling === m.dwelling))) return 'owner_old';
        if (parcel.holder.type === 'estate') return 'heir';
        return parcel.holder.type === 'company' ? 'office' : 'elsewhere';
      }
    }
  }

  private situation(
    parcel: Parcel,
    owners: number[],
    inData: number[],
    residents: number[],
    mailing: MailingTruth,
  ): OwnerSituation {
    const holder = parcel.holder;
    if (holder.type !== 'people' && holder.type !== 'estate') return holder.type;
    if (inData.length === 0) return 'owner_missing';
    if (holder.type === 'estate') return 'estate';
    const alive = owners.filter((id) => this.persons[id]!.death === null);
    if (alive.length === 0) return 'owner_deceased';
    const lives = alive.some((id) => residents.includes(id));
    if (holder.trust !== null) return lives ? 'trust_occupied' : 'trust_absentee';
    if (lives) return 'owner_occupied';
    const livedThere = owners.some((id) => this.persons[id]!.stints.some((s) => parcel.dwellings.includes(s.dwelling)));
    if (!livedThere) return 'absentee_landlord';
    if (mailing === 'owner_current') return 'moved_out_mailing_current';
    if (mailing === 'po_box') return 'moved_out_po_box';
    return 'moved_out_mailing_stale';
  }

  /** The owner name lines as the county writes them, and who they name. */
  private ownerNames(
    parcel: Parcel,
    c: Convention,
    r: Random,
  ): {
    line1: string;
    line2: string;
    kind: RecordKind;
    owners: number[];
    /** Whom the roll names, and how: a first and last name, or the surname alone (a family trust). */
    named: { id: number; first: string | null; last: string }[];
    list: { first_name?: string; last_name: string }[];
  } {
    const holder = parcel.holder;
    const pickOf = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
    const lf = (n: RollName, mi = true): string => join(n.last, n.first, mi ? n.mi : '', n.suffix);
    const fl = (n: RollName, mi = true): string => join(n.first, mi ? n.mi : '', n.last, n.suffix);
    const one = c.order === 'lastFirst' ? lf : fl;
    const listed = (n: RollName): { first_name: string; last_name: string } => ({
      first_name: n.mi !== '' && r() < 0.25 ? `${n.first} ${n.mi}` : n.first,
      last_name: n.suffix === '' || r() < 0.5 ? n.last : `${n.last} ${n.suffix}`,
    });
    const whole = (
      kind: RecordKind,
      line: string,
      owners: number[],
      named: { id: number; first: string | null; last: string }[],
    ) => ({
      line1: line,
      line2: '',
      kind,
      owners,
      named,
      list: [{ last_name: line }],
    });
    switch (holder.type) {
      case 'company':
        return whole('company', this.companies[holder.company]!.name, [], []);
      case 'government':
      case 'organization':
        return whole(holder.type, holder.name, [], []);
      case 'estate': {
        const d = this.rollName(this.persons[holder.decedent]!, c, r);
        const line = pickOf([
          `ESTATE OF ${lf(d, false)}`,
          `ESTATE OF ${fl(d)}`,
          `${lf(d)} EST`,
          `${lf(d)} ESTATE`,
          `${lf(d)} DECD`,
          `EST OF ${lf(d, false)}`,
        ]);
        return whole('estate', line, [holder.decedent], [{ id: holder.decedent, first: d.first, last: d.last }]);
      }
      case 'people': {
        const ids = holder.ids;
        const [a, b] = ids.map((id) => this.rollName(this.persons[id]!, c, r)) as [RollName, RollName?];
        const byName = (n: RollName, k: number) => ({ id: ids[k]!, first: n.first, last: n.last });
        if (holder.trust === 'family') {
          const line = pickOf([
            `${a.last} FAMILY TRUST`,
            `THE ${a.last} FAMILY TRUST`,
            `${a.last} FAMILY REVOCABLE TRUST`,
            `${a.last} FAMILY LIVING TRUST`,
          ]);
          const named = [a, b].flatMap((n, k) =>
            n !== undefined && n.last === a.last ? [{ id: ids[k]!, first: null, last: n.last }] : [],
          );
          return whole('trust', line, ids, named);
        }
        if (holder.trust === 'named') {
          const line = pickOf([
            `${fl(a)} REVOCABLE TRUST`,
            `${lf(a)} LIVING TRUST`,
            `${lf(a)} REV TR`,
            `${lf(a)} REVOCABLE LIVING TRUST`,
          ]);
          return whole('trust', line, ids, [byName(a, 0)]);
        }
        if (holder.trust === 'trustee') {
          let line1: string;
          let both = b !== undefined;
          if (b === undefined || r() < 0.4) {
            line1 = `${one(a)} ${pickOf(['TR', 'TRUSTEE', 'TRS'])}`;
            both = false;
          } else if (b.last === a.last && c.order === 'lastFirst')
            line1 = `${join(a.last, a.first, a.mi)} & ${join(b.first, b.mi)} ${pickOf(['TRS', 'TRUSTEES'])}`;
          else line1 = `${one(a)} & ${one(b)} ${pickOf(['TRS', 'TRUSTEES'])}`;
          const roll = r();
          const line2 =
            roll < 0.4 ? `${a.last} FAMILY REVOCABLE LIVING TRUST` : roll < 0.7 ? `${fl(a)} REVOCABLE TRUST` : '';
          const named = both && b !== undefined ? [byName(a, 0), byName(b, 1)] : [byName(a, 0)];
          return { line1, line2, kind: 'trust', owners: ids, named, list: [listed(a)] };
        }
        // People in their own names.
        const person = (line1: string, line2 = '', etal = false) => ({
          line1,
          line2,
          kind: 'person' as const,
          owners: ids,
          named: b === undefined || etal ? [byName(a, 0)] : [byName(a, 0), byName(b, 1)],
          list: b === undefined || etal ? [listed(a)] : [listed(a), listed(b)],
        });
        if (b === undefined) return person(one(a));
        const roll = r();
        if (b.last === a.last) {
          if (c.order === 'lastFirst') {
            const husbandWife = this.persons[ids[0]!]!.male && !this.persons[ids[1]!]!.male;
            if (roll < 0.35) return person(`${join(a.last, a.first, a.mi, a.suffix)} & ${join(b.first, b.mi)}`);
            if (roll < 0.5) return person(`${join(a.last, a.first)} & ${b.first}`);
            if (roll < 0.6 && husbandWife) return person(`${join(a.last, a.first)} & ${b.first} H/W`);
            if (roll < 0.7) return person(`${lf(a)} & ${lf(b)}`);
            if (roll < 0.8) return person(`${lf(a)} ETAL`, '', true);
            return person(lf(a), lf(b));
          }
          if (roll < 0.5) return person(`${join(a.first, a.mi)} & ${join(b.first, b.mi)} ${a.last}`);
          if (roll < 0.75) return person(`${fl(a)} & ${fl(b)}`);
          if (roll < 0.85) return person(`${fl(a)} ETAL`, '', true);
          return person(fl(a), fl(b));
        }
        if (roll < 0.6) return person(`${one(a)} & ${one(b)}`);
        if (roll < 0.75) return person(`${one(a)} ETAL`, '', true);
        return person(one(a), one(b));
      }
    }
  }
}

interface RollName {
  first: string;
  mi: string;
  last: string;
  suffix: string;
}

const join = (...parts: string[]): string => parts.filter((p) => p !== '').join(' ');

const LONG_SUFFIX: Readonly<Record<string, string>> = {
  St: 'Street',
  Ave: 'Avenue',
  Dr: 'Drive',
  Rd: 'Road',
  Ln: 'Lane',
  Ct: 'Court',
  Blvd: 'Boulevard',
  Pl: 'Place',
  Cir: 'Circle',
  Ter: 'Terrace',
  Pkwy: 'Parkway',
  Trl: 'Trail',
  Hwy: 'Highway',
  Sq: 'Square',
};

const EMAIL_DOMAINS = ['example.com', 'example.net', 'example.org'] as const;

function formatPhone(e164: string, r: Random): string {
  const npa = e164.slice(2, 5);
  const rest = e164.slice(5);
  const roll = r();
  if (roll < 0.4) return e164;
  if (roll < 0.7) return `${npa}-${rest.slice(0, 3)}-${rest.slice(3)}`;
  if (roll < 0.85) return `(${npa}) ${rest.slice(0, 3)}-${rest.slice(3)}`;
  return `${npa}${rest}`;
}

/**
 * A deterministic owner world: `people` people in the NDJSON person form, about 1.4 parcels
 * a person in the canonical property columns, and the truth to grade a trace against.
 */
export function generateOwnerWorld(options: OwnerWorldOptions): OwnerWorld {
  if (!Number.isInteger(options.people) || options.people < 1)
    throw new RangeError('people must be a positive integer');
  return new WorldBuilder(options).build();
}

/** The people as NDJSON text (one person a line), for `importContacts(…, { format: 'ndjson' })`. */
export function ownerWorldPeopleNdjson(people: readonly OwnerWorldPerson[]): string {
  return people.map((p) => `${JSON.stringify(p)}\n`).join('');
}

/** The parcels as CSV text in the canonical property columns, for `importProperties(…, { format: 'csv' })`. */
export function ownerWorldPropertyCsv(parcels: readonly OwnerWorldParcel[]): string {
  const quote = (v: string): string => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [PROPERTY_RECORD_COLUMNS.join(',')];
  for (const parcel of parcels) lines.push(PROPERTY_RECORD_COLUMNS.map((c) => quote(parcel[c])).join(','));
  return `${lines.join('\n')}\n`;
}
