/**
 * Matching evaluation data (docs/matching.md): a synthetic census-style population of
 * households, and noisy queries with known answers, one group per kind of noise. Its own
 * design and name lists, independent of the demo generator (@skiptrace/demo) and of the
 * nickname tables the matcher uses, so the evaluation does not grade the matcher on its
 * own tables. Deterministic for a seed.
 */
import { STATE_NAMES } from '@skiptrace/matching';
import { mulberry32 } from '@skiptrace/demo';

export interface EvalPerson {
  id: number;
  household: number;
  first: string;
  last: string;
  /** The unique phone that identifies this person in trace results. */
  phone: string;
  street_address: string;
  city: string;
  state: string;
  zip_code: string;
}

/** Parts of a dwelling's address, for building noisy variants. */
export interface Dwelling {
  number: number;
  streetName: string;
  suffix: string;
  unit: string | null;
  city: string;
  state: string;
  zip: string;
}

export interface EvalQuery {
  kind: EvalKind;
  property: {
    street_address: string;
    city: string;
    state: string;
    zip_code: string;
    first_name?: string;
    last_name?: string;
  };
  /** The person asked for (id), or null when they are not on file. */
  expected: number | null;
  /** Address-only queries: everyone at the dwelling is a right answer. */
  household: number[];
}

export const NOISE_KINDS = [
  'exact',
  'case_punctuation',
  'suffix_swap',
  'state_name',
  'zip_plus4',
  'zip_one_digit',
  'street_typo',
  'street_across_suffix',
  'street_split_join',
  'first_typo',
  'last_typo',
  'nickname',
  'middle_initial',
  'first_initial',
  'swapped_names',
  'compound_surname',
  'missing_unit',
  'extra_unit',
  'combined',
  'address_only',
  'absent_stranger',
  'absent_relative',
  'absent_address',
] as const;
export type NoiseKind = (typeof NOISE_KINDS)[number];

/**
 * The stress set (evaluation-stress.ts): a harder population (housemates with confusable
 * first names, Spanish compound surnames, more apartments) and noises combined.
 */
export const STRESS_KINDS = [
  'stress_name_typos',
  'stress_first_letter',
  'stress_street_nick_zip4',
  'stress_street2_across_suffix',
  'stress_zip_street',
  'stress_similar_housemate',
  'stress_spanish',
  'stress_unit',
  'absent_stress_relative',
  'absent_stress_stranger',
] as const;
export type StressKind = (typeof STRESS_KINDS)[number];
export type EvalKind = NoiseKind | StressKind;

export function isAbsentKind(kind: EvalKind): boolean {
  return kind.startsWith('absent_');
}

export const FIRST_F =
  'MARY PATRICIA JENNIFER LINDA ELIZABETH BARBARA SUSAN JESSICA SARAH KAREN LISA NANCY BETTY MARGARET SANDRA ASHLEY KIMBERLY EMILY DONNA MICHELLE CAROL AMANDA DOROTHY MELISSA DEBORAH STEPHANIE REBECCA SHARON LAURA CYNTHIA KATHLEEN AMY ANGELA SHIRLEY ANNA BRENDA PAMELA EMMA NICOLE HELEN SAMANTHA KATHERINE CHRISTINE DEBRA RACHEL CAROLYN JANET CATHERINE MARIA HEATHER DIANE RUTH JULIE OLIVIA JOYCE VIRGINIA VICTORIA KELLY LAUREN CHRISTINA JOAN EVELYN JUDITH MEGAN ANDREA CHERYL HANNAH JACQUELINE MARTHA GLORIA TERESA ANN SARA MADISON FRANCES KATHRYN JANICE JEAN ABIGAIL ALICE JULIA JUDY SOPHIA GRACE DENISE AMBER DORIS MARILYN DANIELLE BEVERLY ISABELLA THERESA DIANA NATALIE BRITTANY CHARLOTTE MARIE KAYLA ALEXIS LORI GUADALUPE ROSA LETICIA YOLANDA ARACELI XIOMARA MEI YING PRIYA ANJALI FATIMA AISHA NGOC THUY SOO'.split(
    ' ',
  );
export const FIRST_M =
  'JAMES ROBERT JOHN MICHAEL DAVID WILLIAM RICHARD JOSEPH THOMAS CHRISTOPHER CHARLES DANIEL MATTHEW ANTHONY MARK DONALD STEVEN ANDREW PAUL JOSHUA KENNETH KEVIN BRIAN GEORGE TIMOTHY RONALD JASON EDWARD JEFFREY RYAN JACOB GARY NICHOLAS ERIC JONATHAN STEPHEN LARRY JUSTIN SCOTT BRANDON BENJAMIN SAMUEL GREGORY ALEXANDER PATRICK FRANK RAYMOND JACK DENNIS JERRY TYLER AARON JOSE ADAM NATHAN HENRY ZACHARY DOUGLAS PETER KYLE NOAH ETHAN JEREMY WALTER CHRISTIAN KEITH ROGER TERRY AUSTIN SEAN GERALD CARL HAROLD DYLAN ARTHUR LAWRENCE JORDAN JESSE BRYAN BILLY BRUCE GABRIEL JOE LOGAN ALAN JUAN ALBERT WILLIE ELIJAH WAYNE RANDY VINCENT MASON ROY RALPH BOBBY RUSSELL BRADLEY PHILIP EUGENE FRANCISCO JESUS IGNACIO EDUARDO GUILLERMO ALBERTO ANTONIO ALEJANDRO MIGUEL LUIS CARLOS JORGE RAFAEL ENRIQUE MANUEL WEI JUN RAJESH ARJUN MOHAMMED OMAR MINH TUAN HYUN'.split(
    ' ',
  );
export const SURNAMES =
  'SMITH JOHNSON WILLIAMS BROWN JONES GARCIA MILLER DAVIS RODRIGUEZ MARTINEZ HERNANDEZ LOPEZ GONZALEZ WILSON ANDERSON THOMAS TAYLOR MOORE JACKSON MARTIN LEE PEREZ THOMPSON WHITE HARRIS SANCHEZ CLARK RAMIREZ LEWIS ROBINSON WALKER YOUNG ALLEN KING WRIGHT SCOTT TORRES NGUYEN HILL FLORES GREEN ADAMS NELSON BAKER HALL RIVERA CAMPBELL MITCHELL CARTER ROBERTS GOMEZ PHILLIPS EVANS TURNER DIAZ PARKER CRUZ EDWARDS COLLINS REYES STEWART MORRIS MORALES MURPHY COOK ROGERS GUTIERREZ ORTIZ MORGAN COOPER PETERSON BAILEY REED KELLY HOWARD RAMOS KIM COX WARD RICHARDSON WATSON BROOKS CHAVEZ WOOD JAMES BENNETT GRAY MENDOZA RUIZ HUGHES PRICE ALVAREZ CASTILLO SANDERS PATEL MYERS LONG ROSS FOSTER JIMENEZ POWELL JENKINS PERRY RUSSELL SULLIVAN BELL COLEMAN BUTLER HENDERSON BARNES GONZALES FISHER VASQUEZ SIMMONS ROMERO JORDAN PATTERSON ALEXANDER HAMILTON GRAHAM REYNOLDS GRIFFIN WALLACE MORENO WEST COLE HAYES BRYANT HERRERA GIBSON ELLIS TRAN MEDINA AGUILAR STEVENS MURRAY FORD CASTRO MARSHALL OWENS HARRISON FERNANDEZ MCDONALD WOODS WASHINGTON KENNEDY WELLS VARGAS HENRY CHEN FREEMAN WEBB TUCKER GUZMAN BURNS CRAWFORD OLSON SIMPSON PORTER HUNTER GORDON MENDEZ SILVA SHAW SNYDER MASON DIXON MUNOZ HUNT HICKS HOLMES PALMER WAGNER BLACK ROBERTSON BOYD ROSE STONE SALAZAR FOX WARREN MILLS MEYER RICE SCHMIDT GARZA DANIELS FERGUSON NICHOLS STEPHENS SOTO WEAVER RYAN GARDNER PAYNE GRANT DUNN KELLEY SPENCER HAWKINS ARNOLD PIERCE VAZQUEZ HANSEN PETERS SANTOS HART BRADLEY KNIGHT ELLIOTT CUNNINGHAM DUNCAN ARMSTRONG HUDSON CARROLL LANE RILEY ANDREWS ALVARADO RAY DELGADO BERRY PERKINS HOFFMAN JOHNSTON MATTHEWS PENA RICHARDS CONTRERAS WILLIS CARPENTER LAWRENCE SANDOVAL KOWALSKI OBRIEN DELACRUZ NAKAMURA OKAFOR ABERNATHY FITZGERALD'.split(
    ' ',
  );
export const COMPOUND_SECOND = 'CARRION LOPEZ DIAZ RUIZ MORALES VEGA SOTO LUNA ROJAS NAVARRO'.split(' ');

const STREET_NAMES =
  'MAIN OAK PINE MAPLE CEDAR ELM WASHINGTON LAKE HILL PARK VIEW SUNSET RIVERSIDE CHURCH MILL MEADOW FOREST SPRING HIGHLAND JEFFERSON LINCOLN FRANKLIN MADISON JACKSON ADAMS WILLOW CHESTNUT WALNUT HICKORY DOGWOOD MAGNOLIA SYCAMORE BIRCH ASPEN POPLAR LAUREL HOLLY JUNIPER SPRUCE CYPRESS CLEARWATER MECHANIC HARBOR PROSPECT UNION CENTER MARKET WATER BRIDGE RAILROAD COLLEGE ACADEMY FAIRVIEW GREENWOOD LAKEVIEW RIDGEWAY BROOKSIDE STONEBRIDGE WOODLAND COUNTRY CLUB VALLEY SHADOW CREEK PLEASANT GROVE ORCHARD VINEYARD MEADOWBROOK CHERRY BLOSSOM HAWTHORNE KENSINGTON WESTMINSTER BRENTWOOD ASHFORD BRIARWOOD CAMBRIDGE DEVONSHIRE ELMWOOD FOXHOLLOW GLENDALE HEATHER IRONWOOD JASMINE KINGSTON LANCASTER MONROE NEWPORT OXFORD PRESTON QUAIL ROSEWOOD SHERWOOD TIMBERLINE VICTORIA WINDSOR YORKSHIRE ZUNIGA ALAMEDA BUENA VISTA SAN PEDRO'.split(
    ' ',
  );
export const SUFFIXES: readonly (readonly [string, string])[] = [
  ['ST', 'STREET'],
  ['AVE', 'AVENUE'],
  ['RD', 'ROAD'],
  ['DR', 'DRIVE'],
  ['LN', 'LANE'],
  ['CT', 'COURT'],
  ['BLVD', 'BOULEVARD'],
  ['WAY', 'WAY'],
  ['PL', 'PLACE'],
  ['CIR', 'CIRCLE'],
  ['TER', 'TERRACE'],
  ['PKWY', 'PARKWAY'],
];
const CITIES =
  'RIVERTON,UT;MAPLEWOOD,MN;FAIRHAVEN,MA;OAKDALE,CA;SPRINGDALE,AR;GREENVILLE,SC;LAKEWOOD,CO;CEDAR FALLS,IA;BROOKFIELD,WI;HILLSBORO,OR;MIDDLETOWN,OH;FRANKLIN,TN;CLINTON,NC;SALEM,VA;GEORGETOWN,TX;MADISON,AL;ARLINGTON,TX;AUBURN,WA;BRISTOL,CT;DOVER,DE;EL PASO,TX;SAN MARCOS,TX;LAS CRUCES,NM;YUMA,AZ;SAINT CLOUD,FL;FORT MYERS,FL;MOUNT VERNON,NY;NEWARK,NJ;TROY,MI;ELGIN,IL'
    .split(';')
    .map((entry) => entry.split(',') as [string, string]);

/** Common nickname pairs in the US (formal → nickname), for queries only; our own list. */
export const QUERY_NICKNAMES: Readonly<Record<string, readonly string[]>> = {
  CATHERINE: ['CATHY', 'KATE', 'KATIE'],
  KATHERINE: ['KATHY', 'KATE', 'KATIE'],
  KATHLEEN: ['KATHY', 'KATHIE'],
  RYAN: ['RY'],
  MICHELLE: ['SHELLY', 'SHELL'],
  SHARON: ['SHERRY', 'SHARI'],
  ROBERT: ['BOB', 'BOBBY', 'ROB', 'ROBBIE'],
  WILLIAM: ['BILL', 'BILLY', 'WILL', 'LIAM'],
  RICHARD: ['RICK', 'DICK', 'RICH', 'RICKY'],
  JAMES: ['JIM', 'JIMMY', 'JAMIE'],
  JOHN: ['JACK', 'JOHNNY'],
  MICHAEL: ['MIKE', 'MICKEY'],
  ELIZABETH: ['LIZ', 'BETH', 'BETSY', 'LIZZIE', 'BETTY'],
  MARGARET: ['PEGGY', 'MAGGIE', 'MEG'],
  PATRICIA: ['PATTY', 'TRISH', 'PAT'],
  JENNIFER: ['JEN', 'JENNY'],
  CHRISTOPHER: ['CHRIS', 'TOPHER'],
  NICHOLAS: ['NICK', 'NICKY'],
  ANTHONY: ['TONY'],
  JOSEPH: ['JOE', 'JOEY'],
  THOMAS: ['TOM', 'TOMMY'],
  DANIEL: ['DAN', 'DANNY'],
  MATTHEW: ['MATT'],
  ANDREW: ['ANDY', 'DREW'],
  STEVEN: ['STEVE'],
  STEPHEN: ['STEVE'],
  EDWARD: ['ED', 'EDDIE', 'TED'],
  DEBORAH: ['DEB', 'DEBBIE'],
  REBECCA: ['BECKY', 'BECCA'],
  SAMANTHA: ['SAM', 'SAMMY'],
  VICTORIA: ['VICKY', 'TORI'],
  ALEXANDER: ['ALEX', 'XANDER'],
  BENJAMIN: ['BEN', 'BENNY'],
  KIMBERLY: ['KIM'],
  CYNTHIA: ['CINDY'],
  SUSAN: ['SUE', 'SUZY'],
  DOUGLAS: ['DOUG'],
  GREGORY: ['GREG'],
  TIMOTHY: ['TIM'],
  KENNETH: ['KEN', 'KENNY'],
  LAWRENCE: ['LARRY'],
  RAYMOND: ['RAY'],
  GERALD: ['JERRY'],
  JOSE: ['PEPE'],
  FRANCISCO: ['PACO', 'PANCHO'],
  GUADALUPE: ['LUPE'],
  JESUS: ['CHUY'],
  IGNACIO: ['NACHO'],
  EDUARDO: ['LALO'],
  GUILLERMO: ['MEMO'],
  ALBERTO: ['BETO'],
  ANTONIO: ['TONO', 'TONY'],
  ENRIQUE: ['KIKE'],
  MANUEL: ['MANNY'],
  ALEJANDRO: ['ALEX'],
  PAMELA: ['PAM'],
  DOROTHY: ['DOT', 'DOTTIE'],
  JACQUELINE: ['JACKIE'],
  ABIGAIL: ['ABBY'],
  THERESA: ['TERRY', 'TESS'],
  FRANCES: ['FRAN'],
  PHILIP: ['PHIL'],
  ZACHARY: ['ZACK'],
  NATHAN: ['NATE'],
  JOSHUA: ['JOSH'],
  SAMUEL: ['SAM'],
  ALBERT: ['AL', 'BERT'],
  HENRY: ['HANK'],
  CHARLES: ['CHUCK', 'CHARLIE'],
  DONALD: ['DON', 'DONNIE'],
  RONALD: ['RON', 'RONNIE'],
};

export const KEYBOARD_ROWS = ['QWERTYUIOP', 'ASDFGHJKL', 'ZXCVBNM'];

export interface Population {
  people: EvalPerson[];
  dwellings: Map<number, Dwelling>;
  /** Person ids per dwelling (household). */
  members: Map<number, number[]>;
}

export interface PopulationOptions {
  households: number;
  seed: number;
}

export function titleCase(word: string): string {
  return word.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());
}

/** A synthetic population: households at addresses, some in apartment buildings. */
export function generatePopulation({ households, seed }: PopulationOptions): Population {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  // Places: each city has 2-3 ZIPs; each ZIP 30 streets.
  const zips: { city: string; state: string; zip: string; streets: [string, string][] }[] = [];
  const usedZip = new Set<string>();
  for (const [city, state] of CITIES) {
    const count = 2 + Math.floor(random() * 2);
    const base = 10000 + Math.floor(random() * 89000);
    for (let z = 0; z < count; z++) {
      let zip = String(base + z * 7).padStart(5, '0');
      while (usedZip.has(zip)) zip = String(Number(zip) + 1).padStart(5, '0');
      usedZip.add(zip);
      const streets: [string, string][] = [];
      for (let s = 0; s < 30; s++) {
        const words = random() < 0.15 ? `${pick(STREET_NAMES)} ${pick(STREET_NAMES)}` : pick(STREET_NAMES);
        streets.push([words, pick(SUFFIXES)[0]]);
      }
      zips.push({ city, state, zip, streets });
    }
  }
  const people: EvalPerson[] = [];
  const dwellings = new Map<number, Dwelling>();
  const members = new Map<number, number[]>();
  const usedAddress = new Set<string>();
  let building: { base: Omit<Dwelling, 'unit'>; left: number; next: number } | null = null;
  for (let h = 0; h < households; h++) {
    let dwelling: Dwelling;
    if (building !== null && building.left > 0) {
      building.left--;
      dwelling = { ...building.base, unit: String(building.next++) };
    } else {
      const place = pick(zips);
      const [streetName, suffix] = pick(place.streets);
      // House numbers cluster low, so one number recurs on several streets of a ZIP.
      let number = random() < 0.5 ? 1 + Math.floor(random() * 300) : 1 + Math.floor(random() * 9999);
      while (usedAddress.has(`${number}|${streetName}|${place.zip}`)) number++;
      usedAddress.add(`${number}|${streetName}|${place.zip}`);
      const base = { number, streetName, suffix, city: place.city, state: place.state, zip: place.zip };
      if (random() < 0.08) {
        building = { base, left: 2 + Math.floor(random() * 10), next: 100 + Math.floor(random() * 3) * 100 };
        dwelling = { ...base, unit: String(building.next++) };
      } else {
        building = null;
        dwelling = { ...base, unit: null };
      }
    }
    dwellings.set(h, dwelling);
    const size = Math.min(6, 1 + Math.floor(-Math.log(1 - random()) * 1.4));
    const surname = random() < 0.06 ? `${pick(SURNAMES)} ${pick(COMPOUND_SECOND)}` : pick(SURNAMES);
    const ids: number[] = [];
    const firsts = new Set<string>();
    for (let p = 0; p < size; p++) {
      let last = surname;
      const roll = random();
      if (p > 0 && roll < 0.15)
        last = pick(SURNAMES); // partner or roommate
      else if (p > 0 && roll < 0.18) last = `${surname.split(' ')[0]}-${pick(SURNAMES)}`; // hyphenated
      let first = pick(random() < 0.5 ? FIRST_F : FIRST_M);
      while (firsts.has(first)) first = pick(random() < 0.5 ? FIRST_F : FIRST_M);
      firsts.add(first);
      const id = people.length;
      const unit = dwelling.unit === null ? '' : ` ${random() < 0.5 ? 'Apt' : '#'} ${dwelling.unit}`;
      people.push({
        id,
        household: h,
        first: titleCase(first),
        last: titleCase(last),
        phone: `+1512${String(2000000 + id * 7)}`,
        street_address: `${dwelling.number} ${titleCase(dwelling.streetName)} ${titleCase(
          random() < 0.5 ? dwelling.suffix : (SUFFIXES.find(([a]) => a === dwelling.suffix)?.[1] ?? dwelling.suffix),
        )}${unit}`,
        city: titleCase(dwelling.city),
        state: dwelling.state,
        zip_code: dwelling.zip,
      });
      ids.push(id);
    }
    members.set(h, ids);
  }
  return { people, dwellings, members };
}

/** CSV text of the population in the contact import's canonical columns. */
export function populationCsv(population: Population): string {
  const quote = (v: string): string => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = ['street_address,city,state,zip_code,first_name,last_name,phone_1'];
  for (const p of population.people) {
    lines.push([p.street_address, p.city, p.state, p.zip_code, p.first, p.last, p.phone.slice(2)].map(quote).join(','));
  }
  return `${lines.join('\n')}\n`;
}

export interface QueryOptions {
  seed: number;
  /** Queries per noise kind. */
  perKind: number;
}

/** Noisy queries with known answers, `perKind` of each kind in NOISE_KINDS. */
export function generateQueries(population: Population, { seed, perKind }: QueryOptions): EvalQuery[] {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const { people, dwellings, members } = population;

  function typo(word: string, edits: number): string {
    let out = word;
    for (let e = 0; e < edits; e++) {
      if (out.length < 3) break;
      const i = 1 + Math.floor(random() * (out.length - 2));
      const op = random();
      if (op < 0.3 && i < out.length - 1) {
        out = out.slice(0, i) + out[i + 1] + out[i] + out.slice(i + 2); // transposition
      } else if (op < 0.6) {
        const ch = out[i] as string;
        const row = KEYBOARD_ROWS.find((r) => r.includes(ch.toUpperCase()));
        const at = row?.indexOf(ch.toUpperCase()) ?? -1;
        let sub = row === undefined ? 'E' : (row[at + (random() < 0.5 ? -1 : 1)] ?? row[at - 1] ?? 'E');
        if (/[aeiou]/i.test(ch) && random() < 0.6)
          sub = pick(['A', 'E', 'I', 'O', 'U'].filter((v) => v !== ch.toUpperCase()));
        out = out.slice(0, i) + (ch === ch.toLowerCase() ? sub.toLowerCase() : sub) + out.slice(i + 1);
      } else if (op < 0.8) {
        out = out.slice(0, i) + out.slice(i + 1); // deletion
      } else {
        out = out.slice(0, i) + out[i] + out.slice(i); // doubled letter
      }
    }
    return out === word ? `${word.slice(0, -1)}${word.endsWith('e') ? 'a' : 'e'}` : out;
  }

  const dwellingOf = (person: EvalPerson): Dwelling => dwellings.get(person.household) as Dwelling;
  const line = (d: Dwelling, street = titleCase(d.streetName), suffix = titleCase(d.suffix), unit = d.unit): string =>
    `${d.number} ${street}${suffix === '' ? '' : ` ${suffix}`}${unit === null ? '' : ` Apt ${unit}`}`;
  const base = (
    person: EvalPerson,
    first: string | undefined = person.first,
    last: string | undefined = person.last,
  ) => {
    const d = dwellingOf(person);
    return {
      street_address: line(d),
      city: titleCase(d.city),
      state: d.state,
      zip_code: d.zip,
      ...(first === undefined ? {} : { first_name: first }),
      ...(last === undefined ? {} : { last_name: last }),
    };
  };
  const stateName = (code: string): string => titleCase(STATE_NAMES.get(code) ?? code);
  const zipOffByOne = (zip: string): string => {
    const i = 1 + Math.floor(random() * 4);
    const digit = (Number(zip[i]) + 1 + Math.floor(random() * 9)) % 10;
    return zip.slice(0, i) + String(digit) + zip.slice(i + 1);
  };
  const wordTypo = (words: string, edits: number): string => {
    const parts = words.split(' ');
    const k = Math.floor(random() * parts.length);
    parts[k] = typo(parts[k] as string, (parts[k] as string).length >= 6 ? edits : 1);
    return parts.join(' ');
  };
  const withPeople = (filter: (p: EvalPerson) => boolean): EvalPerson[] => people.filter(filter);
  const inUnits = withPeople((p) => dwellingOf(p).unit !== null);
  const compound = withPeople((p) => /[ -]/.test(p.last));
  const nicknamed = withPeople((p) => QUERY_NICKNAMES[p.first.toUpperCase()] !== undefined);

  const queries: EvalQuery[] = [];
  const named = (kind: NoiseKind, person: EvalPerson, property: EvalQuery['property']): void => {
    queries.push({ kind, property, expected: person.id, household: [] });
  };
  for (const kind of NOISE_KINDS) {
    for (let n = 0; n < perKind; n++) {
      const pool =
        kind === 'missing_unit'
          ? inUnits
          : kind === 'compound_surname'
            ? compound
            : kind === 'nickname' || kind === 'combined'
              ? nicknamed
              : people;
      const person = pick(pool.length > 0 ? pool : people);
      const d = dwellingOf(person);
      const q = base(person);
      switch (kind) {
        case 'exact':
          named(kind, person, q);
          break;
        case 'case_punctuation':
          named(kind, person, {
            ...q,
            street_address: `${q.street_address.toUpperCase().replace(/ /, ', ')}.`,
            first_name: person.first.toLowerCase(),
            last_name: person.last.toUpperCase(),
          });
          break;
        case 'suffix_swap': {
          const long = SUFFIXES.find(([a]) => a === d.suffix)?.[1] ?? d.suffix;
          const choice = random();
          const suffix = choice < 0.4 ? titleCase(long) : choice < 0.7 ? '' : `${titleCase(d.suffix)}.`;
          named(kind, person, { ...q, street_address: line(d, titleCase(d.streetName), suffix) });
          break;
        }
        case 'state_name':
          named(kind, person, { ...q, state: stateName(d.state) });
          break;
        case 'zip_plus4':
          named(kind, person, { ...q, zip_code: `${d.zip}-${String(1000 + Math.floor(random() * 8999))}` });
          break;
        case 'zip_one_digit':
          named(kind, person, { ...q, zip_code: zipOffByOne(d.zip) });
          break;
        case 'street_typo':
          named(kind, person, {
            ...q,
            street_address: line(d, titleCase(wordTypo(d.streetName, random() < 0.5 ? 1 : 2))),
          });
          break;
        case 'street_across_suffix': {
          // "Mechanicest", "Clearwatar Dve": the typo spans the name and the suffix.
          const joined = `${d.streetName}${random() < 0.5 ? d.suffix : (SUFFIXES.find(([a]) => a === d.suffix)?.[1] ?? d.suffix)}`;
          const glued = random() < 0.5;
          const street = glued ? titleCase(typo(joined, 1)) : titleCase(typo(d.streetName, 1));
          const suffix = glued ? '' : titleCase(typo(`${d.suffix}E`, 1));
          named(kind, person, { ...q, street_address: line(d, street, suffix) });
          break;
        }
        case 'street_split_join': {
          const name = d.streetName.includes(' ')
            ? d.streetName.replace(' ', '')
            : d.streetName.length >= 8
              ? `${d.streetName.slice(0, 4)} ${d.streetName.slice(4)}`
              : d.streetName;
          named(kind, person, { ...q, street_address: line(d, titleCase(name)) });
          break;
        }
        case 'first_typo':
          named(kind, person, { ...q, first_name: titleCase(typo(person.first, random() < 0.6 ? 1 : 2)) });
          break;
        case 'last_typo':
          named(kind, person, { ...q, last_name: titleCase(typo(person.last, random() < 0.6 ? 1 : 2)) });
          break;
        case 'nickname':
          named(kind, person, {
            ...q,
            first_name: titleCase(pick(QUERY_NICKNAMES[person.first.toUpperCase()] ?? [person.first])),
          });
          break;
        case 'middle_initial':
          named(kind, person, {
            ...q,
            first_name: `${person.first} ${String.fromCharCode(65 + Math.floor(random() * 26))}${random() < 0.5 ? '.' : ''}`,
          });
          break;
        case 'first_initial':
          named(kind, person, { ...q, first_name: `${person.first[0]}${random() < 0.5 ? '.' : ''}` });
          break;
        case 'swapped_names':
          named(kind, person, { ...q, first_name: person.last, last_name: person.first });
          break;
        case 'compound_surname': {
          const parts = person.last.split(/[ -]/);
          const choice = random();
          const last =
            choice < 0.3
              ? parts.join('-')
              : choice < 0.55
                ? parts.join(' ')
                : choice < 0.75
                  ? parts.join('')
                  : (parts[0] as string);
          named(kind, person, { ...q, last_name: last });
          break;
        }
        case 'missing_unit':
          named(kind, person, { ...q, street_address: line(d, titleCase(d.streetName), titleCase(d.suffix), null) });
          break;
        case 'extra_unit':
          if (d.unit !== null) named(kind, person, q);
          else
            named(kind, person, {
              ...q,
              street_address: line(
                d,
                titleCase(d.streetName),
                titleCase(d.suffix),
                String(1 + Math.floor(random() * 20)),
              ),
            });
          break;
        case 'combined': {
          const long = SUFFIXES.find(([a]) => a === d.suffix)?.[1] ?? d.suffix;
          const nick = titleCase(pick(QUERY_NICKNAMES[person.first.toUpperCase()] ?? [person.first]));
          const street = random() < 0.5 ? titleCase(wordTypo(d.streetName, 1)) : titleCase(d.streetName);
          named(kind, person, {
            ...q,
            street_address: line(d, street, random() < 0.5 ? titleCase(long) : ''),
            state: stateName(d.state),
            zip_code: `${d.zip}-${String(1000 + Math.floor(random() * 8999))}`,
            first_name: random() < 0.7 ? nick : titleCase(typo(person.first, 1)),
            last_name: random() < 0.3 ? titleCase(typo(person.last, 1)) : person.last,
          });
          break;
        }
        case 'address_only': {
          const { first_name: _f, last_name: _l, ...address } = q;
          queries.push({
            kind,
            property: address,
            expected: person.id,
            household: members.get(person.household) ?? [],
          });
          break;
        }
        case 'absent_stranger': {
          // Someone not on file, at an address where others live.
          const household = (members.get(person.household) ?? []).map((id) => people[id] as EvalPerson);
          let first = pick(random() < 0.5 ? FIRST_F : FIRST_M);
          let last = pick(SURNAMES);
          while (household.some((p) => p.last.toUpperCase().includes(last) || p.first.toUpperCase() === first)) {
            first = pick(random() < 0.5 ? FIRST_F : FIRST_M);
            last = pick(SURNAMES);
          }
          queries.push({
            kind,
            property: { ...q, first_name: titleCase(first), last_name: titleCase(last) },
            expected: null,
            household: [],
          });
          break;
        }
        case 'absent_relative': {
          // A relative not on file: the household's surname, another first name.
          const household = (members.get(person.household) ?? []).map((id) =>
            (people[id] as EvalPerson).first.toUpperCase(),
          );
          let first = pick(random() < 0.5 ? FIRST_F : FIRST_M);
          while (household.includes(first)) first = pick(random() < 0.5 ? FIRST_F : FIRST_M);
          queries.push({ kind, property: { ...q, first_name: titleCase(first) }, expected: null, household: [] });
          break;
        }
        case 'absent_address': {
          // The person's name at a house number on their street where nobody is on file.
          let number = d.number + 1 + Math.floor(random() * 40);
          const taken = new Set(
            [...dwellings.values()]
              .filter((x) => x.streetName === d.streetName && x.zip === d.zip)
              .map((x) => x.number),
          );
          while (taken.has(number)) number++;
          queries.push({
            kind,
            property: { ...q, street_address: line({ ...d, number, unit: null }) },
            expected: null,
            household: [],
          });
          break;
        }
      }
    }
  }
  return queries;
}

/** One returned person, as the evaluation sees a trace result. */
export interface EvalResult {
  phone: string;
  confidence: number;
}

export interface KindStats {
  asked: number;
  /** Asked-for person returned (address-only: the queried resident among the results). */
  found: number;
  /** Absent kinds: queries answered with nobody. */
  nobody: number;
  /** People returned. */
  returned: number;
  /** People returned who were not a right answer. */
  wrong: number;
}

export interface EvalReport {
  kinds: Map<EvalKind, KindStats>;
  recall: number;
  precision: number;
  absentCorrect: number;
  /** Confidence bands of returned named matches: predicted (mean) vs observed precision. */
  reliability: { band: string; count: number; predicted: number; observed: number }[];
}

export const RELIABILITY_BANDS: readonly (readonly [number, number])[] = [
  [0, 0.9],
  [0.9, 0.95],
  [0.95, 0.99],
  [0.99, 0.999],
  [0.999, 1.0001],
];

/** Grades results (per query, in order) against the known answers. */
export function gradeEvaluation(population: Population, queries: EvalQuery[], results: EvalResult[][]): EvalReport {
  const idByPhone = new Map(population.people.map((p) => [p.phone, p.id]));
  const kinds = new Map<EvalKind, KindStats>();
  const bands = RELIABILITY_BANDS.map(() => ({ count: 0, sum: 0, right: 0 }));
  let asked = 0;
  let found = 0;
  let absent = 0;
  let absentRight = 0;
  let returned = 0;
  let wrong = 0;
  queries.forEach((query, i) => {
    const stats = kinds.get(query.kind) ?? { asked: 0, found: 0, nobody: 0, returned: 0, wrong: 0 };
    kinds.set(query.kind, stats);
    stats.asked++;
    const got = results[i] ?? [];
    const right = new Set(
      query.household.length > 0 ? query.household : query.expected === null ? [] : [query.expected],
    );
    if (query.expected === null) {
      absent++;
      if (got.length === 0) {
        absentRight++;
        stats.nobody++;
      }
    } else {
      asked++;
      if (got.some((r) => idByPhone.get(r.phone) === query.expected)) {
        found++;
        stats.found++;
      }
    }
    for (const r of got) {
      const ok = right.has(idByPhone.get(r.phone) ?? -1);
      stats.returned++;
      returned++;
      if (!ok) {
        stats.wrong++;
        wrong++;
      }
      if (query.household.length === 0) {
        const b = RELIABILITY_BANDS.findIndex(([lo, hi]) => r.confidence >= lo && r.confidence < hi);
        const band = bands[b];
        if (band !== undefined) {
          band.count++;
          band.sum += r.confidence;
          if (ok) band.right++;
        }
      }
    }
  });
  return {
    kinds,
    recall: asked === 0 ? 1 : found / asked,
    precision: returned === 0 ? 1 : (returned - wrong) / returned,
    absentCorrect: absent === 0 ? 1 : absentRight / absent,
    reliability: RELIABILITY_BANDS.map(([lo, hi], b) => {
      const band = bands[b] as { count: number; sum: number; right: number };
      return {
        band: `${lo.toFixed(3)}–${Math.min(1, hi).toFixed(3)}`,
        count: band.count,
        predicted: band.count === 0 ? 0 : band.sum / band.count,
        observed: band.count === 0 ? 0 : band.right / band.count,
      };
    }),
  };
}

/** The report as a text table. */
export function formatEvaluation(report: EvalReport): string {
  const lines = ['noise kind               asked  found  nobody  returned  wrong'];
  for (const [kind, s] of report.kinds) {
    lines.push(
      `${kind.padEnd(24)} ${String(s.asked).padStart(5)}  ${String(s.found).padStart(5)}  ${String(s.nobody).padStart(6)}  ${String(s.returned).padStart(8)}  ${String(s.wrong).padStart(5)}`,
    );
  }
  lines.push('');
  lines.push(
    `recall ${report.recall.toFixed(4)}  precision ${report.precision.toFixed(4)}  absent → no match ${report.absentCorrect.toFixed(4)}`,
  );
  lines.push('');
  lines.push('confidence band   matches  predicted  observed precision');
  for (const r of report.reliability) {
    lines.push(
      `${r.band.padEnd(17)} ${String(r.count).padStart(7)}  ${r.predicted.toFixed(4).padStart(9)}  ${r.observed.toFixed(4).padStart(8)}`,
    );
  }
  return lines.join('\n');
}
