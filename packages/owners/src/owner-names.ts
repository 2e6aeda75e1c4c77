/**
 * Owner-of-record strings, as county rolls and list providers write them, parsed into
 * owners with a kind. Pure: no I/O, no state. The rules, in the order they run:
 *
 * 1. Clean each line: ASCII upper case, periods out ("N.A." → NA, "L.L.C." → LLC), "ET AL"
 *    → ETAL, "H/W" and "CO-TRS" folded, and everything from a care-of mark ("C/O", "ATTN",
 *    "%") on dropped — a care-of names where the mail goes, not an owner.
 * 2. Join the lines of one owner: a second line that continues the first (it begins with a
 *    trust, company, role or entity word — "OF PHILADELPHIA", "BAPTIST CHURCH" — or the first
 *    ends with "&"), or a trustee on one line and the trust's name on the other, become one
 *    owner; a second line of given names only ("MARY") is the first owner's spouse. Any other
 *    second line is a co-owner.
 * 3. Classify the whole string before splitting it at "&" (so "SMITH & JONES LLC" stays one
 *    company): legal forms and banks → company (an organisation when a church or association
 *    word is there too); public bodies → government; churches, schools, associations, HOAs,
 *    condominiums → organization; TR/TRS/TRUSTEE/TRUST/REVOCABLE … → trust (not TRUST CO,
 *    TRUST FUND, HOUSING TRUST, a securitisation trust); ESTATE OF / … EST / DECD / executors
 *    → estate (not REAL ESTATE, ESTATES, an estate's HOA); then the weaker company words
 *    (HOLDINGS, REALTY …); religious words that are also surnames (BAPTIST, TEMPLE, UNION)
 *    only with more evidence; a word before ST/AVE/RD names a street, not a kind; digits, a
 *    single word, a leading THE or a name cut after its comma → company; the rest → people.
 * 4. People: split at "&" / AND; each part is "LAST FIRST M" or "FIRST M LAST". Certain
 *    evidence: a comma; an initial last ("SMITH JOHN A") or second ("JOHN A SMITH"); a
 *    leading surname particle (DE, VAN, MC); a surname two parts of the record share (first
 *    in both, or last in both). A part without it follows the record's certain parts (see
 *    recordHint); otherwise soft evidence (known given names from @skiptrace/matching,
 *    common surnames, surname endings, East Asian surnames first) must favour one order by
 *    more than SOFT_MARGIN, else the roll order LAST FIRST stands. A later part of a couple
 *    with only given names shares the first part's surname ("SMITH JOHN & MARY B", "JOHN &
 *    MARY SMITH").
 * 5. A last word cut at the field width (21 or 40 characters) is read as the marker word it
 *    begins when the string is that long: "… REVOCABLE LIVING TRU" is a trust.
 */
import { foldAscii, isKnownGivenName } from '@skiptrace/matching';
import {
  CARE_OF,
  COMMON_SURNAMES,
  COMPANY_STRONG,
  COMPANY_WEAK,
  EAST_ASIAN_SURNAMES,
  END_SUFFIXES,
  ESTATE_MARKERS,
  ESTATE_NOT_AN_ESTATE_AFTER,
  EXECUTOR_WORDS,
  EXTRA_GIVEN_NAMES,
  GOVERNMENT_PHRASES,
  GOVERNMENT_WORDS,
  NOISE_WORDS,
  ORGANIZATION_STRONG,
  ORGANIZATION_WEAK,
  SUFFIXES,
  SURNAME_ENDINGS,
  SURNAME_PARTICLES,
  TITLES,
  TRUST_MARKERS,
  TRUST_NOT_A_TRUST_AFTER,
  TRUST_NOT_A_TRUST_BEFORE,
  TRUST_WORDS,
} from './vocabulary.ts';

export type OwnerKind = 'person' | 'trust' | 'estate' | 'company' | 'government' | 'organization';

/** One owner of record. For a trust or estate the name parts name the person behind it, when one is named. */
export interface OwnerOfRecord {
  kind: OwnerKind;
  /** Readable display form: "John A Smith", "Smith Family Trust", "Acme Holdings LLC". */
  name: string;
  /** The source text this owner was read from (two roll lines joined by a space when they form one owner). */
  asRecorded: string;
  firstName?: string;
  middleName?: string;
  lastName?: string;
  suffix?: string;
}

/** Split owner columns (Owner 1 First Name / Owner 1 Last Name …). */
export interface OwnerNameParts {
  firstName?: string | null;
  lastName?: string | null;
}

/** How a source writes a person: "SMITH JOHN A" (rolls) or "JOHN A SMITH" (many list providers). */
export type NameOrder = 'lastFirst' | 'firstLast';
type Order = NameOrder;

export interface OwnerNameOptions {
  /**
   * The order to read a person in when the string itself does not say (no comma, no initial,
   * no shared surname, no clear given-name evidence). Default 'lastFirst', the roll order;
   * detectNameOrder works it out from a file's records.
   */
  order?: NameOrder;
}

/** The order a record's people are written in, and whether that is certain (comma, initials, shared surname). */
interface Hint {
  order: Order;
  decisive: boolean;
  /** From the soft evidence of all the record's people: followed by those without their own certainty. */
  aggregate?: boolean;
}

const ROLL_ORDER: Hint = { order: 'lastFirst', decisive: false };

interface PersonParts {
  first?: string;
  middle?: string;
  last?: string;
  suffix?: string;
}

/** Lines and owners longer than this are cut: bounded work per string. */
const MAX_LINE = 400;
const MAX_TOKENS = 60;

/** Field widths rolls cut owner names at; a string this long may end in a cut word. */
const CUT_WIDTH = 19;

/** Marker words a cut last word may be the beginning of, most specific first. */
const CUT_WORDS: readonly string[] = [
  'TRUSTEES',
  'TRUSTEE',
  'TRUST',
  'REVOCABLE',
  'IRREVOCABLE',
  'LIVING',
  'HOLDINGS',
  'PROPERTIES',
  'INVESTMENTS',
  'CORPORATION',
  'ASSOCIATES',
  'ASSOCIATION',
  'ENTERPRISES',
  'DEVELOPMENT',
  'PARTNERSHIP',
  'PARTNERS',
  'MANAGEMENT',
  'FOUNDATION',
  'UNIVERSITY',
  'CONDOMINIUM',
  'HOMEOWNERS',
  'REALTY',
  'CHURCH',
  'COMPANY',
  'INCORPORATED',
  'LIMITED',
  'APARTMENTS',
  'AUTHORITY',
  'DEPARTMENT',
];

const UNKNOWN_OWNER =
  /^(?:UNAVAILABLE OWNER|OWNER UNAVAILABLE|UNKNOWN|UNKNOWN OWNER|OWNER UNKNOWN|NOT AVAILABLE|NONE|N\/A|NA|CURRENT OWNER|OWNER|OWNERS|RECORD OWNER|VACANT|NO NAME|NAME NOT AVAILABLE)$/;

const TEMPLE_NAMES = new Set(['BETH', 'ISRAEL', 'SHALOM', 'EMANUEL', 'EMANU-EL', 'SINAI', 'OF', 'JUDEA', 'TIFERETH']);
const BANK_WORDS = new Set([
  'BANK',
  'BANCORP',
  'FSB',
  'SAVINGS',
  'SAVS',
  'SVGS',
  'MORTGAGE',
  'MTGE',
  'FINANCIAL',
  'FCU',
]);
const isBankWord = (token: string): boolean => BANK_WORDS.has(token) || (token.length > 5 && token.endsWith('BANK'));
/** A word before one of these is a street's name ("CHURCH ST", "UNION AVE"), not the owner's kind. */
const STREET_TYPES = new Set(
  'ST STREET AVE AV AVENUE RD ROAD LN LANE PL PLACE BLVD DR DRIVE CT COURT TER TERRACE WAY PIKE HWY SQ PKWY'.split(' '),
);
const LEGAL_FORMS = new Set(['LLC', 'LLLP', 'LP', 'LLP', 'LTD', 'INC', 'INCORPORATED', 'PLLC', 'PC', 'GMBH']);

// ---------------------------------------------------------------------------------------
// Cleaning and tokens

/** A line of plain words, and the words in one that still need the full cleaning. */
const SIMPLE_LINE = /^[A-Z0-9 ]*$/;
const SIMPLE_LINE_EXCEPT = /\b(?:ET|CO|C O|ATTN|ATTENTION|DEC)\b/;

/** Upper-case ASCII text with the roll's punctuation normalised and any care-of cut off. */
export function cleanOwnerText(raw: string): string {
  let s = foldAscii(raw.length > MAX_LINE ? raw.slice(0, MAX_LINE) : raw);
  // Most roll lines are plain words: spare them the punctuation passes.
  if (SIMPLE_LINE.test(s) && !SIMPLE_LINE_EXCEPT.test(s)) return s.replace(/ {2,}/g, ' ').trim();
  s = s.replace(/[\u2018\u2019`´]/g, "'").replace(/[\u2013\u2014]/g, '-');
  s = s.replace(/\bC\s*\/\s*O\b/g, ' C/O ').replace(/\bC\/0\b/g, ' C/O ');
  const careOf = CARE_OF.exec(s);
  if (careOf !== null) s = s.slice(0, careOf.index);
  s = s
    .replace(/\bET\.?\s*(?:AL|ALS|ALII)\b\.?/g, ' ETAL ')
    .replace(/\bET\.?\s*UX\b\.?/g, ' ETUX ')
    .replace(/\bET\.?\s*VIR\b\.?/g, ' ETVIR ')
    .replace(/\bCO[-\s]?(TRS|TR|TRUSTEES?|TTEES?)\b/g, ' TRS ')
    .replace(/\bDEC'?D\b/g, ' DECD ');
  if (s.includes('/')) {
    s = s
      .replace(/\b[HW]\s*\/\s*[HW]\b/g, ' HW ')
      .replace(/\b[SMJTWH]\s*\/\s*[SMWTHC]\b/g, ' ')
      .replace(/\bEXEC\s*\/\s*OF\b/g, ' EXEC OF ')
      .replace(/\bA\/K\/A\b/g, ' AKA ')
      .replace(/\bU\/[AD](?:\/[TD])?\b/g, ' UA ')
      .replace(/\bL\s*\/\s*E\b/g, ' LE ')
      .replace(/\b(?:JT|TEN)\s*\/\s*(?:RS|WROS|COM|ENT)\b/g, ' JTRS ')
      .replace(/(\d)\s*\/\s*(\d)/g, '$1/$2')
      .replace(/\//g, (m, offset: number, str: string) => (/\d/.test(str[offset - 1] ?? '') ? m : ' & '));
  }
  return s
    .replace(/(\d)-(\d)/g, '$1/$2')
    .replace(/[&+;]/g, ' & ')
    .replace(/,/g, ' , ')
    .replace(/\./g, ' ')
    .replace(/[()[\]{}"#*:!?]/g, ' ')
    .replace(/(^|\s)[-']+|[-']+(?=\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Tokens of cleaned text; single letters of a legal form join ("L L C" → LLC, "N A" → NA). */
function tokenize(clean: string): string[] {
  const raw = clean === '' ? [] : clean.split(' ').slice(0, MAX_TOKENS);
  // Only single letters ("L L C", "U S A") and "ET AL" are joined.
  if (!raw.some((t) => t.length === 1 || t === 'ET')) return raw;
  const out: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const next3 = raw.slice(i, i + 3).join(' ');
    const next2 = raw.slice(i, i + 2).join(' ');
    const atEnd3 = i + 3 >= raw.length || raw[i + 3] === '&' || raw[i + 3] === ',';
    const atEnd2 = i + 2 >= raw.length || raw[i + 2] === '&' || raw[i + 2] === ',';
    if (i > 0 && (next3 === 'L L C' || next3 === 'L L P') && atEnd3) {
      out.push(next3.replace(/ /g, ''));
      i += 2;
    } else if (next3 === 'U S A') {
      out.push('USA');
      i += 2;
    } else if (i > 0 && (next2 === 'L P' || next2 === 'P C' || next2 === 'N A') && atEnd2) {
      out.push(next2.replace(/ /g, ''));
      i += 1;
    } else if (next2 === 'U S' && i === 0) {
      out.push('US');
      i += 1;
    } else if (next2 === 'ET AL') {
      out.push('ETAL');
      i += 1;
    } else {
      out.push(raw[i] as string);
    }
  }
  return out;
}

/** Letters only, as the given-name tables hold them. */
const letters = (token: string): string => token.replace(/[^A-Z]/g, '');
const isInitial = (token: string): boolean => /^[A-Z]$/.test(token);
const hasDigit = (token: string): boolean => /\d/.test(token);

/** 1 for a known given name, 0.5 for one that is also a very common surname, 0 otherwise. */
function givenWeight(token: string): number {
  const word = letters(token);
  if (word.length < 2) return 0;
  const parts = token.includes('-') ? token.split('-').map(letters) : [word];
  if (!parts.every((part) => isKnownGivenName(part) || EXTRA_GIVEN_NAMES.has(part))) return 0;
  return COMMON_SURNAMES.has(word) ? 0.5 : 1;
}

/** 1 for a very common surname, 0.5 for a word with a surname's ending, 0 otherwise. */
function surnameWeight(token: string): number {
  const word = letters(token);
  if (COMMON_SURNAMES.has(word)) return 1;
  if (word.length >= 5 && SURNAME_ENDINGS.test(word) && givenWeight(token) === 0) return 0.5;
  return 0;
}

/** A cut last word read as the marker it begins ("TRU" → TRUST) when the string is field-width long. */
function expandCut(tokens: string[], length: number): string[] {
  const last = tokens[tokens.length - 1];
  if (last === undefined || tokens.length < 2) return tokens;
  const previous = tokens[tokens.length - 2] as string;
  const known = (word: string): boolean =>
    TRUST_WORDS.has(word) ||
    COMPANY_STRONG.has(word) ||
    COMPANY_WEAK.has(word) ||
    ORGANIZATION_STRONG.has(word) ||
    SUFFIXES.has(word);
  const markerBefore = TRUST_WORDS.has(previous) || COMPANY_WEAK.has(previous) || COMPANY_STRONG.has(previous);
  if (length >= CUT_WIDTH && !markerBefore) {
    // A trust's or estate's qualifier last, whole or cut, after a person's name: the field
    // ended before the marker ("LOPEZ BENJAMIN LIVING", "DONNA MARTIN REVOCABL").
    const qualifier = cutQualifier(tokens, length);
    if (qualifier !== undefined) return [...tokens.slice(0, -1), ...qualifier];
  }
  if (known(last)) return tokens;
  if (markerBefore && (last === 'L' || last === 'LL')) return [...tokens.slice(0, -1), 'LLC'];
  if (markerBefore && (last === 'I' || last === 'IN')) return [...tokens.slice(0, -1), 'INC'];
  if (last.length < 3 || (length < CUT_WIDTH && !markerBefore)) return tokens;
  if (last.length < 4 && !markerBefore) return tokens;
  if (givenWeight(last) > 0 && !markerBefore) return tokens;
  const word = CUT_WORDS.find((candidate) => candidate.startsWith(last) && candidate !== last);
  return word === undefined ? tokens : [...tokens.slice(0, -1), word];
}

/** Qualifiers a cut owner string may end in, and the words they stand for. */
const CUT_QUALIFIERS: readonly [string, readonly string[]][] = [
  ['REVOCABLE', ['REVOCABLE', 'TRUST']],
  ['IRREVOCABLE', ['IRREVOCABLE', 'TRUST']],
  ['LIVING', ['LIVING', 'TRUST']],
  ['DECEASED', ['DECEASED']],
  ['ESTATE', ['ESTATE']],
];

/**
 * The words a cut last token stands for when it begins (or is) a trust's or estate's
 * qualifier and comes after a person's name of at least two words; two letters only after
 * a suffix or on a line exactly a field width long ("CHRISTINE CRANWOOD RE", "JACKSON
 * PATRICK JR DE"); never a word that is a given name or a common surname.
 */
function cutQualifier(tokens: readonly string[], length: number): readonly string[] | undefined {
  const last = tokens[tokens.length - 1] as string;
  const before = tokens.slice(0, -1).filter((t) => !SUFFIXES.has(t));
  if (before.length === 0 || before.some((t) => !/^[A-Z][A-Z'-]*$/.test(t))) return undefined;
  // A family's name cut in FAMILY at the field width ("WHITWORTH-ASHCOMBE FA"): its trust.
  if (
    last.length >= 2 &&
    'FAMILY'.startsWith(last) &&
    last !== 'FAMILY' &&
    CUT_WIDTHS.includes(length) &&
    before.every((t) => givenWeight(t) < 1)
  ) {
    return ['FAMILY', 'TRUST'];
  }
  if (before.length < 2) return undefined;
  if (tokens.slice(0, -1).some((t) => TRUST_WORDS.has(t) || ENTITY_SETS.some((set) => set.has(t)))) return undefined;
  if (last.length < 2 || !/^[A-Z]+$/.test(last) || givenWeight(last) > 0 || surnameWeight(last) >= 1) return undefined;
  const match = CUT_QUALIFIERS.find(([word]) => word.startsWith(last));
  if (match === undefined) return undefined;
  // Two letters say little: only where a name cannot go on (after a suffix) or where the field ended.
  if (last.length === 2 && !SUFFIXES.has(tokens[tokens.length - 2] as string) && !CUT_WIDTHS.includes(length)) {
    return undefined;
  }
  return match[1];
}

// ---------------------------------------------------------------------------------------
// Kind

/** All government phrases as one pattern on " WORDS JOINED BY SPACES ". */
const GOVERNMENT_PATTERN = new RegExp(
  ` (?:${GOVERNMENT_PHRASES.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}) `,
);

function trustIndex(tokens: readonly string[]): number {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (!TRUST_MARKERS.has(token)) continue;
    const next = tokens[i + 1];
    const previous = tokens[i - 1];
    if (token.startsWith('TRUST') && token !== 'TRUSTEE' && token !== 'TRUSTEES') {
      if (next !== undefined && TRUST_NOT_A_TRUST_AFTER.has(next)) continue;
      if (previous !== undefined && TRUST_NOT_A_TRUST_BEFORE.has(previous)) continue;
    }
    // "TR" inside a name only counts as the trustee mark at the end of a part.
    if ((token === 'TR' || token === 'TRS') && next !== undefined && !isBoundary(next) && !TRUST_WORDS.has(next)) {
      if (!hasDigit(next)) continue;
    }
    return i;
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token === 'REVOCABLE' || token === 'IRREVOCABLE' || token === 'IRREV' || token === 'REVOC') return i;
    if (
      (token === 'LIVING' || token === 'LIV') &&
      i > 0 &&
      ['REV', 'REVOCABLE', 'FAMILY'].includes(tokens[i - 1] as string)
    ) {
      return i - 1;
    }
    if (token === 'FAMILY' && i > 0 && familyTrustCut(tokens, i)) return i;
  }
  return -1;
}

/** Field widths rolls cut owner names at (characters). */
const CUT_WIDTHS = [20, 21, 40];

/** Trust words a roll's field width cuts short: "… FAMILY T", "… FAMILY TRU", "… FAMILY REVOCABL". */
const CUT_TRUST_WORDS = ['TRUST', 'TRUSTEE', 'REVOCABLE', 'IRREVOCABLE', 'LIVING'];

/**
 * "SMITH FAMILY" followed only by trust words, the last of them possibly cut ("THE
 * BRADLAND FAMILY T", "MYERS FAMILY REVOCABL"), or FAMILY itself last on a line cut at the
 * field width ("THE BROOKFIELD FAMILY", 21 characters): a family trust whose marker was cut.
 */
function familyTrustCut(tokens: readonly string[], family: number): boolean {
  const rest = tokens.slice(family + 1);
  if (rest.length === 0) return CUT_WIDTHS.includes(tokens.join(' ').length);
  return rest.every(
    (t, k) =>
      TRUST_WORDS.has(t) || (k === rest.length - 1 && CUT_TRUST_WORDS.some((w) => w.startsWith(t) && t.length >= 1)),
  );
}

const isBoundary = (token: string): boolean =>
  token === '&' || token === ',' || NOISE_WORDS.has(token) || TRUST_WORDS.has(token);

function estateIndex(tokens: readonly string[]): number {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const next = tokens[i + 1];
    const previous = tokens[i - 1];
    if (ESTATE_MARKERS.has(token)) return i;
    if (token === 'ESTATE' || token === 'EST') {
      if (previous === 'REAL' || previous === 'LIFE' || previous === 'LE') continue;
      if (next === 'OF') return i;
      if (next !== undefined && ESTATE_NOT_AN_ESTATE_AFTER.has(next)) continue;
      const rest = tokens.slice(i + 1).filter((t) => !NOISE_WORDS.has(t) && t !== ',');
      if (rest.length === 0 || rest[0] === '&') return i;
      if (token === 'ESTATE' && i === 0) return i;
    }
    if (EXECUTOR_WORDS.has(token) && token !== 'ADMIN' && token !== 'ADM' && token !== 'PR' && token !== 'REP') {
      if (token === 'HEIRS' || token === 'HEIR' || token === 'DEVISEES' || token === 'SUCCESSORS') {
        if (next === 'OF' || i === tokens.length - 1) return i;
        continue;
      }
      return i;
    }
    if ((token === 'EX' || token === 'EXS') && i >= 2 && i === tokens.length - 1) return i;
    if ((token === 'PERSONAL' && next === 'REPRESENTATIVE') || (token === 'PR' && i === tokens.length - 1 && i >= 2))
      return i;
  }
  return -1;
}

/** The kind of a whole owner string (before it is split into persons). */
/** The words estateIndex looks at besides the markers and executors. */
const ESTATE_WORDS: ReadonlySet<string> = new Set(['ESTATE', 'EST', 'EX', 'EXS', 'PERSONAL', 'PR']);

/** Each vocabulary set as a bit, and each word as the bits of the sets it is in: one pass per string. */
const SET_BIT = new Map<ReadonlySet<string>, number>();
const WORD_MASK = new Map<string, number>();
for (const set of [
  LEGAL_FORMS,
  BANK_WORDS,
  ORGANIZATION_STRONG,
  ORGANIZATION_WEAK,
  GOVERNMENT_WORDS,
  COMPANY_STRONG,
  COMPANY_WEAK,
  TRUST_MARKERS,
  TRUST_WORDS,
  ESTATE_MARKERS,
  EXECUTOR_WORDS,
  ESTATE_WORDS,
]) {
  const bit = 1 << SET_BIT.size;
  SET_BIT.set(set, bit);
  for (const word of set) WORD_MASK.set(word, (WORD_MASK.get(word) ?? 0) | bit);
}
const bitOf = (set: ReadonlySet<string>): number => SET_BIT.get(set) ?? 0;
const TRUSTISH = bitOf(TRUST_MARKERS) | bitOf(TRUST_WORDS);
const ESTATEISH = bitOf(ESTATE_MARKERS) | bitOf(EXECUTOR_WORDS) | bitOf(ESTATE_WORDS);

/** Kinds already worked out, per token array (a line is classified several times while lines are joined). */
const KIND_CACHE = new WeakMap<readonly string[], OwnerKind>();

export function kindOfTokens(all: readonly string[]): OwnerKind {
  let kind = KIND_CACHE.get(all);
  if (kind === undefined) {
    kind = kindOfString(all);
    KIND_CACHE.set(all, kind);
  }
  return kind;
}

function kindOfString(all: readonly string[]): OwnerKind {
  const kind = kindOfWords(all);
  if (kind !== 'person') return kind;
  // A single word, a leading THE, or a name cut right after its comma ("1857 ENTERPRISE,") is a business.
  const words = all.filter((t) => t !== ',' && t !== '&');
  if (words.length === 1 && givenWeight(words[0] as string) === 0 && !/^[A-Z]$/.test(words[0] as string))
    return 'company';
  if (all[0] === 'THE' && words.length > 1) return 'company';
  if (all[all.length - 1] === ',' && all.join(' ').length >= CUT_WIDTH) return 'company';
  return 'person';
}

function kindOfWords(all: readonly string[]): OwnerKind {
  // Words naming a street ("CHURCH ST", "UNION AVE") say nothing of the owner's kind.
  const street = all.some((t) => STREET_TYPES.has(t));
  const tokens = street ? all.map((t, i) => (STREET_TYPES.has(all[i + 1] ?? '') ? `${t}~` : t)) : all;
  const joined = ` ${tokens.join(' ')} `;
  let mask = 0;
  for (const t of tokens) mask |= WORD_MASK.get(t) ?? 0;
  const has = (set: ReadonlySet<string>): boolean => (mask & (SET_BIT.get(set) ?? 0)) !== 0;
  const hasBank =
    tokens.some(isBankWord) ||
    joined.includes(' REAL ESTATE ') ||
    / (?:USA|AMERICA|ASSOCIATION) NA /.test(joined) ||
    / NA (?:TR|TRS|TRUSTEE) /.test(joined);
  const orgStrong = has(ORGANIZATION_STRONG);
  if (has(LEGAL_FORMS) || hasBank) {
    if (orgStrong && !hasBank) return 'organization';
    return 'company';
  }
  if (GOVERNMENT_PATTERN.test(joined) || has(GOVERNMENT_WORDS)) {
    return 'government';
  }
  if (orgStrong || joined.includes(' OF GOD ')) return 'organization';
  if ((mask & TRUSTISH) !== 0 && trustIndex(tokens) >= 0) {
    // A securitisation trust ("LSF10 MASTER PARTICIPATION TRUST") is a company, not a family's trust.
    return tokens.some((t) => /[A-Z]/.test(t) && /\d/.test(t) && !t.includes('/')) ? 'company' : 'trust';
  }
  if ((mask & ESTATEISH) !== 0 && estateIndex(tokens) >= 0) return 'estate';
  if (has(COMPANY_STRONG)) return 'company';
  if (has(COMPANY_WEAK)) return 'company';
  const weakOrg = tokens.findIndex((t) => ORGANIZATION_WEAK.has(t));
  if (weakOrg >= 0) {
    // BAPTIST, TEMPLE, UNION … are surnames too: an organisation only with more evidence.
    const temple = tokens[weakOrg] === 'TEMPLE' && TEMPLE_NAMES.has(tokens[weakOrg + 1] ?? '');
    const twoWeak = tokens.filter((t) => ORGANIZATION_WEAK.has(t)).length > 1;
    const others = tokens.filter((t, i) => i !== weakOrg && t !== '&' && t !== ',' && !NOISE_WORDS.has(t));
    const named = others.some((t) => givenWeight(t) > 0 || isInitial(t));
    if (temple || twoWeak || joined.includes(' OF ') || tokens[0] === 'THE' || (!named && others.length >= 2)) {
      return 'organization';
    }
  }
  if (tokens.some((t) => hasDigit(t) && !/^\d+(?:ST|ND|RD|TH)$/.test(t))) return 'company';
  return 'person';
}

// ---------------------------------------------------------------------------------------
// Display

const KEEP_UPPER = new Set([
  'LLC',
  'LLLP',
  'LP',
  'LLP',
  'PLLC',
  'PC',
  'USA',
  'US',
  'NYC',
  'NYS',
  'HOA',
  'POA',
  'COA',
  'FSB',
  'FCU',
  'HDFC',
  'II',
  'III',
  'IV',
  'VI',
  'YMCA',
  'YWCA',
  'YMHA',
  'REIT',
  'MTA',
  'HPD',
  'DCAS',
  'VFW',
  'FNMA',
  'FHLMC',
  'HUD',
  'NY',
  'CA',
  'TX',
  'FL',
]);
const SMALL_WORDS = new Set(['OF', 'THE', 'AND', 'FOR', 'IN', 'AT', 'ON', 'DE', 'LA', 'DEL', 'Y', 'VAN', 'DER', 'VON']);

function capitalise(word: string): string {
  if (/^[A-Z]+$/.test(word) && !word.startsWith('MC')) return word[0] + word.slice(1).toLowerCase();
  const lower = word.toLowerCase();
  const cap = lower.replace(/(^|[-'])([a-z])/g, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
  if (/^Mc[a-z]{2,}/.test(cap)) return `Mc${(cap[2] as string).toUpperCase()}${cap.slice(3)}`;
  return cap;
}

/** A person's word in display case: "O'BRIEN" → O'Brien, "MCDONALD" → McDonald, "SMITH-JONES" → Smith-Jones. */
function nameCase(token: string): string {
  if (SUFFIXES.has(token) && /^[IVX]+$/.test(token)) return token;
  if (/^\d/.test(token)) return token.toLowerCase();
  return capitalise(token);
}

/** An entity's words in display case, legal forms kept upper ("Acme Holdings LLC", "Wells Fargo Bank N.A."). */
function entityCase(tokens: readonly string[]): string {
  return tokens
    .map((token, i) => {
      if (token === '&') return '&';
      if (token === ',') return ',';
      if (token === 'NA') return 'N.A.';
      if (KEEP_UPPER.has(token)) return token;
      if (/^\d/.test(token)) return token.toLowerCase();
      if (i > 0 && SMALL_WORDS.has(token)) return token.toLowerCase();
      if (
        token.length <= 4 &&
        !/[AEIOUY]/.test(token) &&
        !['ST', 'MT', 'FT', 'DR', 'MR', 'MRS', 'JR', 'SR', 'LTD', 'MGMT', 'MGT', 'BROS', 'CTR', 'DVLP'].includes(token)
      )
        return token;
      return capitalise(token);
    })
    .join(' ')
    .replace(/ ,/g, ',');
}

function personDisplay(p: PersonParts): string {
  return [p.first, p.middle, p.last, p.suffix].filter((part) => part !== undefined && part !== '').join(' ');
}

// ---------------------------------------------------------------------------------------
// People

interface Evidence {
  order: Order;
  decisive: boolean;
  /** Soft evidence for LAST FIRST minus that for FIRST LAST (0 when decisive or none). */
  margin: number;
}

/** How much soft evidence (given names, surnames) it takes to read a person against the expected order. */
const SOFT_MARGIN = 1;

const isParticle = (token: string, at: number): boolean => SURNAME_PARTICLES.has(token) || (token === 'O' && at === 0);

/** How one person's words (suffixes taken out) are ordered, and how sure that is. */
function orderEvidence(tokens: readonly string[], fallback: Order): Evidence {
  const n = tokens.length;
  const sure = (order: Order): Evidence => ({ order, decisive: true, margin: 0 });
  if (n < 2) return { order: fallback, decisive: false, margin: 0 };
  const first = tokens[0] as string;
  const second = tokens[1] as string;
  const last = tokens[n - 1] as string;
  if (isInitial(last) && !isInitial(first)) return sure('lastFirst');
  if (isInitial(first)) return sure('firstLast');
  if (n >= 3 && isInitial(second)) return sure('firstLast');
  if (
    isParticle(first, 0) &&
    n >= 3 &&
    (givenWeight(first) === 0 || isParticle(second, 1) || givenWeight(second) === 0)
  ) {
    return sure('lastFirst');
  }
  const beforeLast = tokens[n - 2] as string;
  if (n >= 3 && !isInitial(beforeLast) && SURNAME_PARTICLES.has(beforeLast) && givenWeight(beforeLast) === 0) {
    return sure('firstLast');
  }
  const g0 = givenWeight(first);
  const g1 = givenWeight(second);
  const gn = givenWeight(last);
  let lastFirst = g1 * 2 - g0 + surnameWeight(first) * 1.5 - surnameWeight(second);
  let firstLast = g0 * 2 - gn + surnameWeight(last) * 1.5 - surnameWeight(first);
  if (n >= 3) {
    lastFirst += gn * 0.5;
    firstLast += g1 * 0.5;
  }
  if (EAST_ASIAN_SURNAMES.has(first) && !EAST_ASIAN_SURNAMES.has(second)) lastFirst += 2.5;
  if (first.includes('-') && g0 === 0) lastFirst += 1;
  if (last.includes('-') && gn === 0) firstLast += 1;
  // Soft evidence must be clear to overturn the expected order (rolls write LAST FIRST).
  const margin = lastFirst - firstLast;
  const order = margin > SOFT_MARGIN ? 'lastFirst' : margin < -SOFT_MARGIN ? 'firstLast' : fallback;
  return { order, decisive: false, margin };
}

/** "LAST FIRST M" or "FIRST M LAST" for one person's words (suffixes already taken out). */
export function decideOrder(tokens: readonly string[], fallback: Order = 'lastFirst'): Order {
  return orderEvidence(tokens, fallback).order;
}

/**
 * The order of a record's people, from all its parts together: a word two parts begin (or
 * end) with is their shared surname ("ODELL PATRICK" / "ODELL RYAN"); else the parts that
 * are certain (comma, initials, particles) decide; else the sum of the soft evidence.
 */
function recordHint(parts: readonly (readonly string[])[], fallback: Hint): Hint {
  const wordsOf = parts.map((part) => personWords(part).words).filter((words) => words.length >= 2);
  if (wordsOf.length >= 2) {
    const firsts = wordsOf.map((w) => w[0] as string);
    const lasts = wordsOf.map((w) => w[w.length - 1] as string);
    const repeated = (list: string[]): boolean => list.some((word, i) => list.indexOf(word) !== i);
    if (repeated(firsts) && !repeated(lasts)) return { order: 'lastFirst', decisive: true };
    if (repeated(lasts) && !repeated(firsts)) return { order: 'firstLast', decisive: true };
  }
  let sure = 0;
  let soft = 0;
  for (const part of parts) {
    if (part.includes(',')) {
      sure += 1;
      continue;
    }
    const evidence = orderEvidence(personWords(part).words, fallback.order);
    if (evidence.decisive) sure += evidence.order === 'lastFirst' ? 1 : -1;
    else soft += evidence.margin;
  }
  if (sure !== 0) return { order: sure > 0 ? 'lastFirst' : 'firstLast', decisive: true };
  if (wordsOf.length >= 2) {
    const order = soft > SOFT_MARGIN ? 'lastFirst' : soft < -SOFT_MARGIN ? 'firstLast' : fallback.order;
    return { order, decisive: false, aggregate: true };
  }
  return fallback;
}

/** A particle that is also an East Asian surname (LE) stands alone before a given name ("LE JASON HAN"). */
const joinsNext = (token: string, at: number): boolean => isParticle(token, at) && !EAST_ASIAN_SURNAMES.has(token);

/** The surname at the start: particles join the word after them ("DE LA CRUZ", "VAN DER BERG"). */
function leadingSurnameLength(tokens: readonly string[]): number {
  let i = 0;
  while (i < tokens.length - 1 && joinsNext(tokens[i] as string, i) && tokens.length - i > 2) i++;
  return i + 1;
}

function buildPerson(tokens: readonly string[], order: Order, suffix: string | undefined): PersonParts {
  const out: PersonParts = {};
  if (suffix !== undefined) out.suffix = suffix;
  if (tokens.length === 0) return out;
  if (tokens.length === 1) {
    out.last = nameCase(tokens[0] as string);
    return out;
  }
  let lastWords: readonly string[];
  let rest: readonly string[];
  if (order === 'lastFirst') {
    let k = leadingSurnameLength(tokens);
    // Two surnames before the given name ("GARCIA LOPEZ JUAN"): the second is no given name, the third is.
    if (k === 1 && tokens.length >= 3) {
      const second = tokens[1] as string;
      const third = tokens[2] as string;
      const spanish =
        (COMMON_SURNAMES.has(second) && !EAST_ASIAN_SURNAMES.has(tokens[0] as string)) || /EZ$/.test(second);
      if (spanish && !isInitial(second) && givenWeight(second) === 0 && givenWeight(third) === 1) k = 2;
    }
    lastWords = tokens.slice(0, k);
    rest = tokens.slice(k);
    // Vietnamese VAN / THI after the surname is a middle name: "NGUYEN VAN THANH" is Thanh.
    if (
      k === 1 &&
      rest.length >= 2 &&
      EAST_ASIAN_SURNAMES.has(tokens[0] as string) &&
      (rest[0] === 'VAN' || rest[0] === 'THI')
    ) {
      rest = [rest[1] as string, rest[0] as string, ...rest.slice(2)];
    }
  } else {
    let start = tokens.length - 1;
    while (
      start > 1 &&
      SURNAME_PARTICLES.has(tokens[start - 1] as string) &&
      givenWeight(tokens[start - 1] as string) < 1
    ) {
      start--;
    }
    lastWords = tokens.slice(start);
    rest = tokens.slice(0, start);
  }
  out.last = lastWords.map(nameCase).join(' ');
  if (rest.length > 0) out.first = nameCase(rest[0] as string);
  if (rest.length > 1) out.middle = rest.slice(1).map(nameCase).join(' ');
  return out;
}

const SUFFIX_DISPLAY: Record<string, string> = {
  JR: 'Jr',
  SR: 'Sr',
  '2ND': 'II',
  '3RD': 'III',
  '4TH': 'IV',
  ESQ: 'Esq',
  PHD: 'PhD',
};

interface PersonWords {
  words: string[];
  suffix?: string;
  suffixAt: number;
}

/** personWords already worked out, per part (a part is read several times: order, couple, person). */
const WORDS_CACHE = new WeakMap<readonly string[], PersonWords>();

/** Takes titles, noise words and suffixes out of one person's words. */
function personWords(tokens: readonly string[]): PersonWords {
  let cached = WORDS_CACHE.get(tokens);
  if (cached === undefined) {
    cached = personWordsOf(tokens);
    WORDS_CACHE.set(tokens, cached);
  }
  return cached;
}

function personWordsOf(tokens: readonly string[]): PersonWords {
  const words: string[] = [];
  let suffix: string | undefined;
  let suffixAt = -1;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token === ',' || token === '&') continue;
    if (TITLES.has(token) && tokens.length > 1) continue;
    if (NOISE_WORDS.has(token)) continue;
    // LE after a name is a life estate ("SMITH JOHN LE"); before one it is a surname (LE JASON).
    if (token === 'LE' && words.length > 0 && i === tokens.length - 1) continue;
    if (
      SUFFIXES.has(token) &&
      words.length > 0 &&
      (!END_SUFFIXES.has(token) ||
        (words.length >= 2 && tokens.slice(i + 1).every((t) => t === ',' || NOISE_WORDS.has(t) || SUFFIXES.has(t))))
    ) {
      suffix ??= SUFFIX_DISPLAY[token] ?? token;
      suffixAt = words.length;
      continue;
    }
    words.push(token);
  }
  return suffix === undefined ? { words, suffixAt } : { words, suffix, suffixAt };
}

/** One person from a part, with the surname to share when the part holds given names only. */
function personFromPart(
  part: readonly string[],
  context: { order?: Order; sharedLast?: string; hint: Hint },
): { person: PersonParts; order: Order } {
  const comma = part.indexOf(',');
  const beforeComma = comma > 0 ? personWords(part.slice(0, comma)) : null;
  const { words, suffix, suffixAt } = personWords(part);
  // "LAST, FIRST M": the words before the comma are the surname.
  if (beforeComma !== null && beforeComma.words.length > 0 && beforeComma.words.length < words.length) {
    const k = beforeComma.words.length;
    const person: PersonParts = { last: words.slice(0, k).map(nameCase).join(' ') };
    const rest = words.slice(k);
    if (rest.length > 0) person.first = nameCase(rest[0] as string);
    if (rest.length > 1) person.middle = rest.slice(1).map(nameCase).join(' ');
    if (suffix !== undefined) person.suffix = suffix;
    return { person, order: 'lastFirst' };
  }
  if (context.sharedLast !== undefined && context.order !== undefined) {
    // The part writes the shared surname itself ("JOHN SMITH AND MARY SMITH", "SMITH JOHN & SMITH MARY").
    const shared = letters(context.sharedLast.toUpperCase());
    if (words.length >= 2 && letters(words[0] as string) === shared) {
      return { person: buildPerson(words, 'lastFirst', suffix), order: 'lastFirst' };
    }
    if (words.length >= 2 && letters(words[words.length - 1] as string) === shared) {
      return { person: buildPerson(words, 'firstLast', suffix), order: 'firstLast' };
    }
    const onlyGiven =
      words.length === 1 ||
      (words.length === 2 &&
        (isInitial(words[1] as string) || givenWeight(words[1] as string) > 0) &&
        givenWeight(words[0] as string) > 0 &&
        !(surnameWeight(words[0] as string) >= 1 && givenWeight(words[0] as string) < 1)) ||
      (words.length === 3 &&
        isInitial(words[2] as string) &&
        givenWeight(words[0] as string) > 0 &&
        givenWeight(words[1] as string) > 0);
    if (onlyGiven && !(words.length === 1 && givenWeight(words[0] as string) === 0 && context.order === 'firstLast')) {
      const person: PersonParts = { last: context.sharedLast };
      if (words.length > 0) person.first = nameCase(words[0] as string);
      if (words.length > 1) person.middle = words.slice(1).map(nameCase).join(' ');
      if (suffix !== undefined) person.suffix = suffix;
      return { person, order: context.order };
    }
  }
  const evidence = orderEvidence(words, context.order ?? context.hint.order);
  let order = evidence.order;
  if (!evidence.decisive && (context.hint.decisive || context.hint.aggregate === true)) order = context.hint.order;
  if (suffixAt === 1 && words.length >= 2) order = 'lastFirst';
  return { person: buildPerson(words, order, suffix), order };
}

const PARTS_CACHE = new WeakMap<readonly string[], string[][]>();

/** Splits at "&" (and AND between names) into parts. */
function splitParts(tokens: readonly string[]): string[][] {
  let cached = PARTS_CACHE.get(tokens);
  if (cached === undefined) {
    cached = splitPartsOf(tokens);
    PARTS_CACHE.set(tokens, cached);
  }
  return cached;
}

function splitPartsOf(tokens: readonly string[]): string[][] {
  const parts: string[][] = [[]];
  for (const token of tokens) {
    if (token === '&' || token === 'AND') {
      if ((parts[parts.length - 1] as string[]).length > 0) parts.push([]);
      continue;
    }
    (parts[parts.length - 1] as string[]).push(token);
  }
  return parts.filter((part) => personWords(part).words.length > 0);
}

/** The persons named by a people string ("SMITH JOHN A & MARY B", "JOHN & MARY SMITH"). */
function personsOf(tokens: readonly string[], given: Hint): PersonParts[] {
  const parts = splitParts(tokens);
  if (parts.length === 0) return [];
  const hint = given.decisive || given.aggregate === true ? given : recordHint(parts, given);
  const out: PersonParts[] = [];
  // "JOHN & MARY SMITH": a lone given name first, the surname written once at the end.
  const firstWords = personWords(parts[0] as string[]).words;
  const loneGiven =
    (firstWords.length === 1 || (firstWords.length === 2 && isInitial(firstWords[1] as string))) &&
    givenWeight(firstWords[0] as string) > 0;
  if (parts.length >= 2 && loneGiven) {
    const second = personFromPart(parts[1] as string[], { hint: { order: 'firstLast', decisive: false } });
    const secondWords = personWords(parts[1] as string[]).words;
    if (secondWords.length >= 2 && second.order === 'firstLast' && second.person.last !== undefined) {
      const lone = personWords(parts[0] as string[]);
      const firstPerson: PersonParts = { first: nameCase(firstWords[0] as string), last: second.person.last };
      if (firstWords.length > 1) firstPerson.middle = nameCase(firstWords[1] as string);
      if (lone.suffix !== undefined) firstPerson.suffix = lone.suffix;
      out.push(firstPerson, second.person);
      for (const part of parts.slice(2)) {
        out.push(personFromPart(part, { order: 'firstLast', sharedLast: second.person.last, hint }).person);
      }
      return out;
    }
  }
  const head = personFromPart(parts[0] as string[], { hint });
  out.push(head.person);
  for (const part of parts.slice(1)) {
    const context =
      head.person.last === undefined ? { hint } : { order: head.order, sharedLast: head.person.last, hint };
    out.push(personFromPart(part, context).person);
  }
  return out;
}

function personOwner(p: PersonParts, asRecorded: string): OwnerOfRecord {
  const owner: OwnerOfRecord = { kind: 'person', name: personDisplay(p), asRecorded };
  return withParts(owner, p);
}

function withParts(owner: OwnerOfRecord, p: PersonParts): OwnerOfRecord {
  if (p.first !== undefined) owner.firstName = p.first;
  if (p.middle !== undefined) owner.middleName = p.middle;
  if (p.last !== undefined) owner.lastName = p.last;
  if (p.suffix !== undefined) owner.suffix = p.suffix;
  return owner;
}

// ---------------------------------------------------------------------------------------
// Trusts and estates

const TRUST_EXPAND: Record<string, string> = {
  TR: 'Trust',
  TRS: 'Trust',
  TRST: 'Trust',
  TRU: 'Trust',
  TRUS: 'Trust',
  REV: 'Revocable',
  REVOC: 'Revocable',
  REVOCABL: 'Revocable',
  IRREV: 'Irrevocable',
  IRREVOC: 'Irrevocable',
  LIV: 'Living',
  LIVIN: 'Living',
  FAM: 'Family',
  DTD: 'Dated',
};

const isTrusteeMark = (token: string): boolean =>
  ['TR', 'TRS', 'TRUSTEE', 'TRUSTEES', 'TTEE', 'TTEES', 'TRSTE', 'TRSTEE', 'TRUSTE'].includes(token);

/** Words that begin a trust's own name when they come before its marker. */
const TRUST_NAME_WORDS: ReadonlySet<string> = new Set([
  'REVOCABLE',
  'REVOC',
  'REVOCABL',
  'REVOCALBE',
  'IRREVOCABLE',
  'IRREV',
  'IRREVOC',
  'LIVING',
  'AGREEMENT',
  'DECLARATION',
  'INTERVIVOS',
  'TESTAMENTARY',
]);

/** A name after OF / FOR / FBO in a trust's or estate's name is written in natural order: FIRST LAST. */
const NATURAL_ORDER: Hint = { order: 'firstLast', decisive: false };
const naturalOr = (hint: Hint): Hint => (hint.decisive ? hint : NATURAL_ORDER);

/** Where a trust's own words begin: the qualifiers before the marker ("SMITH FAMILY TRUST", "… REVOCABLE LIVING TRUST"). */
function trustStart(tokens: readonly string[]): number {
  let at = trustIndex(tokens);
  // A trust's name begins at its first naming word ("LORENA A PLAZA REVOCABLE AGREEMENT OF TR").
  const named = tokens.findIndex((t, i) => i >= 1 && i < at && TRUST_NAME_WORDS.has(t));
  if (named >= 1) at = named;
  while (at > 0 && TRUST_WORDS.has(tokens[at - 1] as string) && !TRUST_MARKERS.has(tokens[at - 1] as string)) at--;
  return at;
}

function trustOwner(tokens: readonly string[], asRecorded: string, defaultOrder: Hint): OwnerOfRecord {
  const at = trustStart(tokens);
  let start = 0;
  while (start < at && (tokens[start] === 'THE' || TITLES.has(tokens[start] as string))) start++;
  const nameTokens = tokens.slice(start, at).filter((t) => t !== ',' && !hasDigit(t));
  const trustWords = tokens.slice(at);
  const isTrustName = trustWords.some((t) => !isTrusteeMark(t) && TRUST_WORDS.has(t)) || trustWords.includes('TRUST');
  // A trust named after the words ("TRUST OF JOHN SMITH", "SMITH FAMILY TRUST SMITH JOHN TR").
  const after = trustWords.filter((t) => !TRUST_WORDS.has(t) && !NOISE_WORDS.has(t) && !hasDigit(t) && t !== ',');
  // A trust named after a property ("6927 RODNEY STREET TRUST", "5125 GREENE STREET TRUST") names nobody.
  const addressNamed = hasDigit(tokens[start] ?? '') || tokens.slice(start, at).some((t) => STREET_TYPES.has(t));
  const personsBefore = nameTokens.length > 0 && !addressNamed ? personsOf(nameTokens, defaultOrder) : [];
  const personsAfter = after.length > 0 ? personsOf(after, naturalOr(defaultOrder)) : [];
  let person: PersonParts | undefined = personsBefore[0];
  const afterPerson = personsAfter[0];
  if (afterPerson?.first !== undefined && person?.first === undefined) person = afterPerson;
  if (person === undefined) person = afterPerson;
  // A lone surname before FAMILY/… is the family's name ("SMITH FAMILY TRUST" → Smith), and
  // so are two words of which neither is a given name ("GARCIA LOPEZ FAMILY TRUST").
  const familyNamed = trustWords.includes('FAMILY');
  if (
    person !== undefined &&
    (person.first === undefined || familyNamed) &&
    nameTokens.length > 1 &&
    person.last !== undefined
  ) {
    const words = personWords(nameTokens).words;
    if (words.every((w) => givenWeight(w) < 1)) person = { last: words.map(nameCase).join(' ') };
  }
  let name: string;
  if (isTrustName) {
    const described: string[] = [];
    for (const t of trustWords) {
      if (!TRUST_WORDS.has(t) && !hasDigit(t)) continue;
      if (isTrusteeMark(t) && t !== 'TR' && t !== 'TRS') continue;
      const word = TRUST_EXPAND[t] ?? (hasDigit(t) ? t : entityCase([t]));
      if (word === 'Trust' && described.includes('Trust')) continue;
      described.push(word);
    }
    if (!described.includes('Trust')) described.push('Trust');
    if (personsBefore.length > 0) {
      const lead =
        person !== undefined && person.first === undefined
          ? personDisplay(person)
          : personsBefore.map(personDisplay).join(' & ');
      name = `${lead} ${described.join(' ')}`;
    } else if (nameTokens.length > 0) {
      const written = addressNamed ? tokens.slice(start, at).filter((t) => t !== ',') : nameTokens;
      name = `${entityCase(written)} ${described.join(' ')}`;
    } else {
      const joiner = /^(?:Fbo|For|Of)$/.test(described[described.length - 1] ?? '') ? ' ' : ' of ';
      name = person === undefined ? described.join(' ') : `${described.join(' ')}${joiner}${personDisplay(person)}`;
    }
  } else {
    const who = personsBefore.length > 0 ? personsBefore.map(personDisplay).join(' & ') : entityCase(nameTokens);
    const plural = personsBefore.length > 1 || trustWords.some((t) => t === 'TRS' || t === 'TRUSTEES' || t === 'TTEES');
    name = `${who}, ${plural ? 'Trustees' : 'Trustee'}`;
  }
  const owner: OwnerOfRecord = { kind: 'trust', name: name.replace(/\s+/g, ' ').trim(), asRecorded };
  return person === undefined ? owner : withParts(owner, person);
}

function estateOwner(tokens: readonly string[], asRecorded: string, defaultOrder: Hint): OwnerOfRecord {
  const at = estateIndex(tokens);
  const marker = tokens[at] as string;
  let decedent: string[] = [];
  let other: string[] = [];
  if ((marker === 'ESTATE' || marker === 'EST') && tokens[at + 1] === 'OF') {
    decedent = tokens.slice(at + 2) as string[];
    other = tokens.slice(0, at) as string[];
  } else if (EXECUTOR_WORDS.has(marker) || marker === 'PERSONAL') {
    const of = tokens.indexOf('OF', at);
    if (of > 0) decedent = tokens.slice(of + 1) as string[];
    other = tokens.slice(0, at) as string[];
  } else {
    decedent = tokens.slice(0, at) as string[];
  }
  const clean = (part: readonly string[]): string[] =>
    part.filter(
      (t) =>
        !ESTATE_MARKERS.has(t) &&
        !EXECUTOR_WORDS.has(t) &&
        t !== 'ESTATE' &&
        t !== 'EST' &&
        t !== 'OF' &&
        t !== 'THE' &&
        t !== 'REPRESENTATIVE',
    );
  const named = clean(decedent);
  const afterOf = (marker === 'ESTATE' || marker === 'EST') && tokens[at + 1] === 'OF' && decedent.length > 0;
  const persons =
    named.length > 0
      ? personsOf(named, afterOf ? naturalOr(defaultOrder) : defaultOrder)
      : personsOf(clean(other), defaultOrder);
  const person = persons[0];
  const name = person === undefined ? entityCase(tokens) : `Estate of ${personDisplay(person)}`;
  const owner: OwnerOfRecord = { kind: 'estate', name, asRecorded };
  return person === undefined ? owner : withParts(owner, person);
}

// ---------------------------------------------------------------------------------------
// Owner strings and lines

function entityTokens(tokens: readonly string[]): string[] {
  const out = [...tokens];
  while (
    out.length > 1 &&
    (NOISE_WORDS.has(out[out.length - 1] as string) || out[out.length - 1] === ',' || out[out.length - 1] === '&')
  ) {
    out.pop();
  }
  return out;
}

function ownersOfString(tokens: readonly string[], asRecorded: string, defaultOrder: Hint): OwnerOfRecord[] {
  if (tokens.length === 0 || UNKNOWN_OWNER.test(tokens.join(' '))) return [];
  const kind = kindOfTokens(tokens);
  switch (kind) {
    case 'company':
    case 'government':
    case 'organization':
      return [{ kind, name: entityCase(entityTokens(tokens)), asRecorded }];
    case 'trust':
      return [trustOwner(tokens, asRecorded, defaultOrder)];
    case 'estate':
      return [estateOwner(tokens, asRecorded, defaultOrder)];
    case 'person':
      return personsOf(tokens, defaultOrder)
        .filter((p) => p.last !== undefined || p.first !== undefined)
        .map((p) => personOwner(p, asRecorded));
  }
}

interface Line {
  raw: string;
  tokens: string[];
}

function lineOf(raw: string): Line {
  const clean = cleanOwnerText(raw);
  return { raw: raw.trim().replace(/\s+/g, ' '), tokens: expandCut(tokenize(clean), clean.length) };
}

const ENTITY_SETS: readonly ReadonlySet<string>[] = [
  ORGANIZATION_STRONG,
  ORGANIZATION_WEAK,
  COMPANY_STRONG,
  COMPANY_WEAK,
  GOVERNMENT_WORDS,
  LEGAL_FORMS,
];

/** A line of given names only ("MARY", "MARY B"): the co-owner who shares the line before's surname. */
function givenOnly(line: Line): boolean {
  const words = personWords(line.tokens).words;
  if (line.tokens.includes(',') || words.length === 0 || words.length > 2) return false;
  if (givenWeight(words[0] as string) < 1) return false;
  return words.length === 1 || isInitial(words[1] as string);
}

/** True when the second line goes on with the first as one more person of a couple. */
function addsGivenNames(previous: Line, next: Line): boolean {
  return givenOnly(next) && kindOfTokens(previous.tokens) === 'person';
}

/** True when the line cannot stand alone: it begins with a trust, company or role word. */
function continues(previous: Line, next: Line): boolean {
  // An entity's name wrapped onto the second line ("GREATER ST THOMAS" / "BAPTIST CHURCH").
  const nextKind = kindOfTokens(next.tokens);
  const previousKind = kindOfTokens(previous.tokens);
  if (
    nextKind !== 'person' &&
    nextKind !== 'trust' &&
    nextKind !== 'estate' &&
    previousKind !== 'trust' &&
    previousKind !== 'estate' &&
    ENTITY_SETS.some((set) => set.has(next.tokens[0] as string)) &&
    !previous.tokens.some((t) => LEGAL_FORMS.has(t))
  ) {
    return true;
  }
  const last = previous.tokens[previous.tokens.length - 1];
  if (last === '&' || last === ',' || last === 'AND' || last === 'OF') return true;
  const first = next.tokens[0] as string;
  if (first === 'OF' || first === 'FOR' || first === 'DTD' || first === 'DATED' || first === 'UA') return true;
  if (first === 'IN' && TRUST_WORDS.has(next.tokens[1] ?? '')) return true;
  if (TRUST_WORDS.has(first) && first !== 'FAMILY') return true;
  if (LEGAL_FORMS.has(first) || ESTATE_MARKERS.has(first)) return true;
  if (EXECUTOR_WORDS.has(first) && first !== 'PR') return true;
  if ((first === 'EST' || first === 'ESTATE') && next.tokens.length <= 2) return true;
  return false;
}

/** Whole strings of one owner each: continuation lines joined, trustee + trust name joined. */
function ownerStrings(lines: readonly string[]): Line[] {
  const parsed = lines
    .filter((line): line is string => typeof line === 'string')
    .map(lineOf)
    .filter((line) => line.tokens.length > 0);
  const out: Line[] = [];
  for (const line of parsed) {
    const previous = out[out.length - 1];
    if (previous !== undefined && continues(previous, line)) {
      out[out.length - 1] = { raw: `${previous.raw} ${line.raw}`, tokens: [...previous.tokens, ...line.tokens] };
      continue;
    }
    if (previous !== undefined && addsGivenNames(previous, line)) {
      out[out.length - 1] = { raw: `${previous.raw} ${line.raw}`, tokens: [...previous.tokens, '&', ...line.tokens] };
      continue;
    }
    out.push(line);
  }
  return out;
}

/**
 * The trust line and the trustee line name the same family: the trust names nobody, or
 * surnames that begin alike (the trust line is often cut or misspelt: BUCHANA, DIETEK).
 * "REVOCABLE TRUST OF WILLIE J YOUNG" with trustee "MC CRAY MARILYN O TR" stays two owners.
 */
function sameFamily(named: OwnerOfRecord, trustee: OwnerOfRecord): boolean {
  if (named.lastName === undefined || trustee.lastName === undefined) return true;
  const a = named.lastName.toUpperCase().replace(/[^A-Z]/g, '');
  const b = trustee.lastName.toUpperCase().replace(/[^A-Z]/g, '');
  return a.slice(0, 4) === b.slice(0, 4) || a.includes(b) || b.includes(a);
}

const isTrusteeName = (name: string): boolean => name.endsWith(', Trustee') || name.endsWith(', Trustees');

/**
 * The owners of record named by a roll's owner lines (`[owner_name, owner_name_2?]`).
 * Blank lines and care-of lines are skipped; an owner named twice is returned once.
 */
export function parseOwnerNames(lines: readonly string[], options: OwnerNameOptions = {}): OwnerOfRecord[] {
  const strings = ownerStrings(lines);
  // The record's people are read in one order unless a part says otherwise (see recordHint).
  const peopleParts = strings.flatMap((line) => {
    const kind = kindOfTokens(line.tokens);
    if (kind === 'person') return splitParts(line.tokens);
    if (kind !== 'trust') return [];
    // A trustee written as the roll writes people ("SHMAYA ESTER TR") shares the record's order;
    // a trust's own name ("MICHELE WALDEN BUCHANAN LIVING TRUST") is written in its own.
    const at = trustStart(line.tokens);
    const before = line.tokens.slice(0, at);
    const trusteeForm = line.tokens.slice(at).every((t) => isTrusteeMark(t) || NOISE_WORDS.has(t));
    return trusteeForm && before.length >= 2 && !before.some(hasDigit) ? splitParts(before) : [];
  });
  const fallback: Hint = options.order === undefined ? ROLL_ORDER : { order: options.order, decisive: false };
  const hint = recordHint(peopleParts, fallback);
  const owners: OwnerOfRecord[] = [];
  // A trustee on one line and the trust's name on the other (either order) are one owner:
  // the trust, named as the trust line writes it, reached through the trustee as the roll
  // spells them (the trust line is often cut or misspelt: "… BUCHANA LIVING TRUST").
  let previousTrust: { owner: OwnerOfRecord; index: number; trustee: boolean } | undefined;
  for (const line of strings) {
    const parsed = ownersOfString(line.tokens, line.raw, hint);
    for (const owner of parsed) {
      const trustee = owner.kind === 'trust' && isTrusteeName(owner.name);
      const pair: [OwnerOfRecord, OwnerOfRecord] | undefined =
        previousTrust === undefined ? undefined : trustee ? [previousTrust.owner, owner] : [owner, previousTrust.owner];
      if (
        owner.kind === 'trust' &&
        previousTrust !== undefined &&
        pair !== undefined &&
        previousTrust.trustee !== trustee &&
        sameFamily(pair[0], pair[1])
      ) {
        const [named, person] = pair;
        const merged: OwnerOfRecord = {
          kind: 'trust',
          name: named.name,
          asRecorded: `${previousTrust.owner.asRecorded} ${owner.asRecorded}`,
        };
        const source = person.lastName !== undefined ? person : named;
        for (const key of ['firstName', 'middleName', 'lastName', 'suffix'] as const) {
          const value = source[key];
          if (value !== undefined) merged[key] = value;
        }
        owners[previousTrust.index] = merged;
        previousTrust = undefined;
        continue;
      }
      previousTrust = owner.kind === 'trust' ? { owner, index: owners.length, trustee } : undefined;
      if (!owners.some((o) => o.kind === owner.kind && o.name.toUpperCase() === owner.name.toUpperCase())) {
        owners.push(owner);
      } else if (previousTrust !== undefined) {
        previousTrust = undefined;
      }
    }
  }
  return owners;
}

/**
 * Owners from split columns (Owner 1 First Name / Last Name, Owner 2 …). A last name that
 * holds a whole owner string ("SMITH FAMILY TRUST", "ACME HOLDINGS LLC", "SMITH JOHN &
 * MARY") is read by the same parser; a plain first/last pair is taken as given.
 */
export function parseOwnerParts(parts: readonly OwnerNameParts[], options: OwnerNameOptions = {}): OwnerOfRecord[] {
  const fallback: Hint = options.order === undefined ? ROLL_ORDER : { order: options.order, decisive: false };
  const owners: OwnerOfRecord[] = [];
  const add = (owner: OwnerOfRecord): void => {
    if (!owners.some((o) => o.kind === owner.kind && o.name.toUpperCase() === owner.name.toUpperCase()))
      owners.push(owner);
  };
  for (const part of parts) {
    const firstRaw = (part.firstName ?? '').trim();
    const lastRaw = (part.lastName ?? '').trim();
    if (firstRaw === '' && lastRaw === '') continue;
    const asRecorded = [firstRaw, lastRaw].filter((s) => s !== '').join(' ');
    const last = lineOf(lastRaw);
    const first = lineOf(firstRaw);
    // One word in a name column is a name, not a one-word business (kindOfTokens reads it so on a roll).
    const columnKind = (tokens: readonly string[]): OwnerKind =>
      tokens.length === 0
        ? 'person'
        : personWords(tokens).words.length === 1
          ? kindOfWords(tokens)
          : kindOfTokens(tokens);
    const lastKind = columnKind(last.tokens);
    const firstKind = columnKind(first.tokens);
    const lastWords = personWords(last.tokens).words;
    if (first.tokens.length === 0 && lastWords.length === 1 && lastKind === 'person') {
      const surname = personWords(last.tokens);
      const person: PersonParts = { last: nameCase(lastWords[0] as string) };
      if (surname.suffix !== undefined) person.suffix = surname.suffix;
      add(personOwner(person, asRecorded));
      continue;
    }
    const looksWhole =
      lastKind !== 'person' ||
      firstKind !== 'person' ||
      first.tokens.length === 0 ||
      last.tokens.includes('&') ||
      (last.tokens.includes(',') && lastWords.length > 1);
    if (looksWhole) {
      const whole =
        first.tokens.length > 0 && lastKind === 'person' && firstKind === 'person'
          ? [...first.tokens, ...last.tokens]
          : last.tokens.length > 0
            ? firstKind !== 'person'
              ? [...first.tokens, ...last.tokens]
              : last.tokens
            : first.tokens;
      const split = first.tokens.length > 0 && lastKind === 'person' && firstKind === 'person';
      const hint: Hint = split ? { order: 'firstLast', decisive: true } : fallback;
      for (const owner of ownersOfString(whole, asRecorded, hint)) add(owner);
      continue;
    }
    // First column may hold a couple's given names ("JOHN & MARY"), the last column the surname.
    const surname = personWords(last.tokens);
    const lastName = surname.words.map(nameCase).join(' ');
    for (const given of splitParts(first.tokens)) {
      const words = personWords(given);
      const person: PersonParts = { last: lastName };
      if (words.words.length > 0) person.first = nameCase(words.words[0] as string);
      if (words.words.length > 1) person.middle = words.words.slice(1).map(nameCase).join(' ');
      const suffix = words.suffix ?? surname.suffix;
      if (suffix !== undefined) person.suffix = suffix;
      add(personOwner(person, asRecorded));
    }
  }
  return owners;
}

/** Records read by detectNameOrder: enough for a clear majority, bounded work (an import may decide once it has this many). */
export const NAME_ORDER_RECORDS = 5_000;

/**
 * The order a file writes its people in when a string does not say, from the file's own
 * records (each `[owner_name, owner_name_2?]`, at most the first 5,000 are read): the people
 * written without a comma whose order is certain (an initial: "SMITH JOHN A" / "JOHN A
 * SMITH"; a particle; a surname two owners share) vote; with no such vote, the sum of the
 * soft evidence decides; with none at all, the roll order LAST FIRST. Pass the result to
 * parseOwnerNames as `{ order }` for every record of that file.
 */
export function detectNameOrder(records: readonly (readonly string[])[]): NameOrder {
  let sure = 0;
  let soft = 0;
  for (const lines of records.slice(0, NAME_ORDER_RECORDS)) {
    const parts = ownerStrings(lines)
      .filter((line) => kindOfTokens(line.tokens) === 'person')
      .flatMap((line) => splitParts(line.tokens))
      .filter((part) => !part.includes(','));
    if (parts.length === 0) continue;
    const hint = recordHint(parts, { order: 'lastFirst', decisive: false });
    if (hint.decisive) {
      sure += hint.order === 'lastFirst' ? 1 : -1;
      continue;
    }
    for (const part of parts) soft += orderEvidence(personWords(part).words, 'lastFirst').margin;
  }
  if (sure !== 0) return sure > 0 ? 'lastFirst' : 'firstLast';
  return soft < 0 ? 'firstLast' : 'lastFirst';
}
