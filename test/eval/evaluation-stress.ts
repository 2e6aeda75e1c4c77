/**
 * The stress set of the matching evaluation (docs/matching.md §6): written to find where
 * the matcher breaks, independently of the generator it was tuned on (evaluation.ts).
 *
 * Harder population, built on generatePopulation's households:
 * - housemates with confusable first names and one surname (Jon/John, Christina/Christine,
 *   Daniel/Danielle, Mario/Maria …), added to about one household in eight;
 * - Spanish-named households (about one in five) with compound surnames written with a
 *   space, a hyphen or as the first surname only, and accents in the stored names;
 * Harder queries: typos anywhere in a word (the first letter too, insertions of any
 * letter), two edits in both names at once, a misspelt street with a nickname, ZIP+4 and
 * the state's name together, two edits across the street/suffix boundary, a wrong ZIP digit
 * with a misspelt street, units written in other ways or left out with a misspelt street,
 * and people not on file with names drawn from the same (Spanish and confusable) pools.
 */
import {
  COMPOUND_SECOND,
  FIRST_F,
  FIRST_M,
  generatePopulation,
  KEYBOARD_ROWS,
  QUERY_NICKNAMES,
  STRESS_KINDS,
  SUFFIXES,
  SURNAMES,
  titleCase,
} from './evaluation.ts';
import type { Dwelling, EvalPerson, EvalQuery, Population, PopulationOptions, StressKind } from './evaluation.ts';
import { STATE_NAMES } from '@skiptrace/matching';
import { mulberry32, type Random } from '@skiptrace/demo';

/** Confusable given names that live under one roof (siblings, a couple, parent and child). */
const CONFUSABLE: readonly (readonly [string, string])[] = [
  ['JOHN', 'JON'],
  ['JOHN', 'JUAN'],
  ['CHRISTINA', 'CHRISTINE'],
  ['CHRISTIAN', 'CHRISTINA'],
  ['DANIEL', 'DANIELLE'],
  ['ERIC', 'ERICA'],
  ['MARIO', 'MARIA'],
  ['MARIA', 'MARIE'],
  ['JULIO', 'JULIA'],
  ['JULIAN', 'JULIANA'],
  ['FRANCIS', 'FRANCES'],
  ['FRANCISCO', 'FRANCISCA'],
  ['ANTONIO', 'ANTONIA'],
  ['GABRIEL', 'GABRIELA'],
  ['ALEXANDER', 'ALEXANDRA'],
  ['PATRICK', 'PATRICIA'],
  ['ANDRES', 'ANDREA'],
  ['JESSE', 'JESSIE'],
  ['LOUIS', 'LUIS'],
  ['CARL', 'CARLA'],
  ['PAUL', 'PAULA'],
  ['JEAN', 'JOAN'],
  ['SARA', 'SARAH'],
  ['ANN', 'ANNA'],
  ['STEVEN', 'STEPHEN'],
  ['JOE', 'JOEL'],
  ['ALAN', 'ALLAN'],
  ['BRIAN', 'BRYAN'],
  ['MARK', 'MARC'],
  ['ROSA', 'ROSE'],
  ['ELENA', 'ELAINE'],
  ['JOSE', 'JOSUE'],
  ['DENISE', 'DENNIS'],
  ['ROBERT', 'ROBERTA'],
  ['GEORGE', 'GEORGIA'],
  ['NICOLE', 'NICOLAS'],
];

const SPANISH_F =
  'MARIA CARMEN ISABEL DOLORES PILAR TERESA ANA LUCIA ELENA SOFIA VALENTINA CAMILA DANIELA GABRIELA FERNANDA ALEJANDRA ADRIANA MARISOL CONSUELO ESPERANZA JOSEFINA FRANCISCA ANTONIA GUADALUPE ROSA LETICIA YOLANDA ARACELI XIOMARA BEATRIZ VERONICA MONICA PATRICIA SILVIA GRACIELA MARTA'.split(
    ' ',
  );
const SPANISH_M =
  'JOSE JUAN FRANCISCO JESUS IGNACIO EDUARDO GUILLERMO ALBERTO ANTONIO ALEJANDRO MIGUEL LUIS CARLOS JORGE RAFAEL ENRIQUE MANUEL JULIO MARIO ANDRES RICARDO FERNANDO SERGIO RAUL ROBERTO PEDRO PABLO DIEGO JAVIER ARMANDO OSCAR HECTOR RUBEN ERNESTO SALVADOR ARTURO GERARDO ALFREDO RAMON HUMBERTO'.split(
    ' ',
  );
const SPANISH_SURNAMES = [
  ...'GARCIA RODRIGUEZ MARTINEZ HERNANDEZ LOPEZ GONZALEZ PEREZ SANCHEZ RAMIREZ TORRES FLORES RIVERA GOMEZ DIAZ CRUZ REYES MORALES GUTIERREZ ORTIZ RAMOS CHAVEZ MENDOZA RUIZ ALVAREZ CASTILLO JIMENEZ MORENO HERRERA MEDINA AGUILAR CASTRO FERNANDEZ VARGAS GUZMAN MENDEZ SALAZAR SOTO DELGADO VAZQUEZ CONTRERAS SANDOVAL ALVARADO'.split(
    ' ',
  ),
  ...COMPOUND_SECOND,
];
/** How Spanish names are often written with their accents. */
const ACCENTED: Readonly<Record<string, string>> = {
  MARIA: 'María',
  JOSE: 'José',
  JESUS: 'Jesús',
  RAMON: 'Ramón',
  RAUL: 'Raúl',
  RUBEN: 'Rubén',
  HECTOR: 'Héctor',
  OSCAR: 'Óscar',
  ANDRES: 'Andrés',
  VERONICA: 'Verónica',
  MONICA: 'Mónica',
  LUCIA: 'Lucía',
  GARCIA: 'García',
  RODRIGUEZ: 'Rodríguez',
  MARTINEZ: 'Martínez',
  HERNANDEZ: 'Hernández',
  LOPEZ: 'López',
  GONZALEZ: 'González',
  PEREZ: 'Pérez',
  SANCHEZ: 'Sánchez',
  RAMIREZ: 'Ramírez',
  GOMEZ: 'Gómez',
  DIAZ: 'Díaz',
  GUTIERREZ: 'Gutiérrez',
  ALVAREZ: 'Álvarez',
  JIMENEZ: 'Jiménez',
  FERNANDEZ: 'Fernández',
  GUZMAN: 'Guzmán',
  MENDEZ: 'Méndez',
  VAZQUEZ: 'Vázquez',
  CHAVEZ: 'Chávez',
};
const UNIT_FORMS = ['Apt {u}', 'Apt. {u}', '#{u}', '# {u}', 'Unit {u}', 'Apartment {u}', 'Ste {u}'];

/** Accents removed. */
const fold = (w: string): string => w.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

const accent = (word: string): string =>
  word
    .split(' ')
    .map((w) => ACCENTED[w.toUpperCase()] ?? w)
    .join(' ');

/** Letters for insertions and substitutions: a keyboard neighbour, or a vowel for a vowel. */
function substitute(random: Random, ch: string): string {
  const upper = ch.toUpperCase();
  let sub: string;
  if ('AEIOU'.includes(upper) && random() < 0.6) {
    const vowels = 'AEIOUY'.replace(upper, '');
    sub = vowels[Math.floor(random() * vowels.length)] as string;
  } else {
    const row = KEYBOARD_ROWS.find((r) => r.includes(upper));
    const at = row?.indexOf(upper) ?? -1;
    sub =
      row === undefined
        ? String.fromCharCode(65 + Math.floor(random() * 26))
        : (row[at + (random() < 0.5 ? -1 : 1)] ?? row[at - 1] ?? 'E');
  }
  return ch === ch.toLowerCase() ? sub.toLowerCase() : sub;
}

/**
 * `edits` typing errors anywhere in the word (the first letter about one time in six):
 * substitution, transposition, deletion, insertion, doubled letter. Never the word itself.
 */
export function stressTypo(random: Random, word: string, edits: number, firstLetter = 1 / 6): string {
  if (word.length < 2) return `${word}e`;
  let out = word;
  for (let e = 0; e < edits; e++) {
    if (out.length < 2) break;
    const i = random() < firstLetter ? 0 : 1 + Math.floor(random() * (out.length - 1));
    const op = random();
    const ch = out[i] as string;
    if (ch === ' ' || ch === '-') continue;
    if (op < 0.3) out = out.slice(0, i) + substitute(random, ch) + out.slice(i + 1);
    else if (op < 0.5 && i < out.length - 1 && out[i + 1] !== ' ')
      out = out.slice(0, i) + out[i + 1] + ch + out.slice(i + 2);
    else if (op < 0.7 && out.length > 3) out = out.slice(0, i) + out.slice(i + 1);
    else if (op < 0.85) out = out.slice(0, i) + substitute(random, ch) + out.slice(i);
    else out = out.slice(0, i) + ch + out.slice(i);
  }
  if (out.toUpperCase() === word.toUpperCase()) return stressTypo(random, word, edits, firstLetter);
  // The first letter keeps its case.
  return i0Case(out, word);
}

function i0Case(out: string, word: string): string {
  if (out.length === 0) return out;
  const upper = word[0] === (word[0] as string).toUpperCase();
  return (upper ? (out[0] as string).toUpperCase() : (out[0] as string).toLowerCase()) + out.slice(1);
}

/** generatePopulation's households, made harder (see the module comment). */
export function generateStressPopulation(options: PopulationOptions): Population {
  const population = generatePopulation(options);
  const random = mulberry32(options.seed ^ 0x5eed5eed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const { people, members } = population;
  const phoneOf = (id: number) => `+1512${String(2000000 + id * 7)}`;
  for (const [household, ids] of members) {
    const roll = random();
    if (roll < 0.2) {
      // A Spanish-named household: paternal and maternal surnames.
      const paternal = pick(SPANISH_SURNAMES);
      let maternal = pick(SPANISH_SURNAMES);
      while (maternal === paternal) maternal = pick(SPANISH_SURNAMES);
      const firsts = new Set<string>();
      for (const id of ids) {
        const p = people[id] as EvalPerson;
        let first = pick(random() < 0.5 ? SPANISH_F : SPANISH_M);
        while (firsts.has(first)) first = pick(random() < 0.5 ? SPANISH_F : SPANISH_M);
        firsts.add(first);
        const form = random();
        const last =
          form < 0.4
            ? `${paternal} ${maternal}`
            : form < 0.6
              ? `${paternal}-${maternal}`
              : form < 0.85
                ? paternal
                : pick(SPANISH_SURNAMES);
        const written = (w: string) => (random() < 0.3 ? accent(titleCase(w)) : titleCase(w));
        p.first = written(first);
        p.last = written(last);
      }
    }
    if (random() < 0.13) {
      // A housemate whose first name is confusable with a resident's, same surname.
      const firstUpper = new Set(ids.map((id) => (people[id] as EvalPerson).first.toUpperCase()));
      const pairs = CONFUSABLE.flatMap(([a, b]) => [
        [a, b],
        [b, a],
      ]).filter(([a, b]) => firstUpper.has(a as string) && !firstUpper.has(b as string));
      let anchor: EvalPerson;
      let name: string;
      if (pairs.length > 0) {
        const [a, b] = pick(pairs) as [string, string];
        anchor = ids.map((id) => people[id] as EvalPerson).find((p) => p.first.toUpperCase() === a) as EvalPerson;
        name = b;
      } else {
        // Rename a resident to one side of a pair and add the other.
        const [a, b] = pick(CONFUSABLE);
        anchor = people[pick(ids)] as EvalPerson;
        anchor.first = titleCase(a);
        name = b;
      }
      const id = people.length;
      people.push({ ...anchor, id, first: titleCase(name), phone: phoneOf(id), household });
      ids.push(id);
    }
  }
  return population;
}

export interface StressQueryOptions {
  seed: number;
  perKind: number;
}

/** Noisy queries of the stress kinds, `perKind` each. */
export function generateStressQueries(population: Population, { seed, perKind }: StressQueryOptions): EvalQuery[] {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const { people, dwellings, members } = population;
  const dwellingOf = (p: EvalPerson): Dwelling => dwellings.get(p.household) as Dwelling;
  const longSuffix = (d: Dwelling) => SUFFIXES.find(([a]) => a === d.suffix)?.[1] ?? d.suffix;
  const unitText = (u: string) => pick(UNIT_FORMS).replace('{u}', u);
  const line = (d: Dwelling, street = titleCase(d.streetName), suffix = titleCase(d.suffix), unit = d.unit) =>
    `${d.number} ${street}${suffix === '' ? '' : ` ${suffix}`}${unit === null ? '' : ` ${unitText(unit)}`}`;
  const address = (p: EvalPerson) => {
    const d = dwellingOf(p);
    return { street_address: line(d), city: titleCase(d.city), state: d.state, zip_code: d.zip };
  };
  const zip4 = (zip: string) => `${zip}-${String(1000 + Math.floor(random() * 8999))}`;
  const zipOff = (zip: string) => {
    const i = Math.floor(random() * 5);
    return zip.slice(0, i) + String((Number(zip[i]) + 1 + Math.floor(random() * 9)) % 10) + zip.slice(i + 1);
  };
  const nickname = (p: EvalPerson): string | null => {
    const list = QUERY_NICKNAMES[fold(p.first).toUpperCase()];
    return list === undefined ? null : titleCase(pick(list));
  };
  /** One or two edits in one word of a (multi-word) street name. */
  const streetTypo = (name: string, edits: number) => {
    const parts = name.split(' ');
    const k = Math.floor(random() * parts.length);
    parts[k] = stressTypo(random, parts[k] as string, (parts[k] as string).length >= 6 ? edits : 1);
    return parts.join(' ');
  };
  const upperFirst = (p: EvalPerson) => fold(p.first).toUpperCase();
  const householdOf = (p: EvalPerson) => (members.get(p.household) ?? []).map((id) => people[id] as EvalPerson);
  const confusableHousemate = (p: EvalPerson) =>
    householdOf(p).some(
      (o) =>
        o.id !== p.id &&
        CONFUSABLE.some(
          ([a, b]) => (a === upperFirst(p) && b === upperFirst(o)) || (b === upperFirst(p) && a === upperFirst(o)),
        ),
    );
  const spanish = people.filter((p) => /[ -]/.test(p.last) || fold(p.first + p.last) !== p.first + p.last);
  const similar = people.filter(confusableHousemate);
  const inUnits = people.filter((p) => dwellingOf(p).unit !== null);
  const nicknamed = people.filter((p) => nickname(p) !== null);
  const stateName = (code: string) => titleCase(STATE_NAMES.get(code) ?? code);

  const queries: EvalQuery[] = [];
  const named = (kind: StressKind, p: EvalPerson, property: EvalQuery['property']) =>
    queries.push({ kind, property, expected: p.id, household: [] });
  for (const kind of STRESS_KINDS) {
    for (let n = 0; n < perKind; n++) {
      const pool =
        kind === 'stress_similar_housemate'
          ? similar
          : kind === 'stress_spanish'
            ? spanish
            : kind === 'stress_unit'
              ? inUnits
              : kind === 'stress_street_nick_zip4'
                ? nicknamed
                : people;
      const p = pick(pool.length > 0 ? pool : people);
      const d = dwellingOf(p);
      const q = { ...address(p), first_name: p.first, last_name: p.last };
      switch (kind) {
        case 'stress_name_typos':
          named(kind, p, {
            ...q,
            first_name: stressTypo(random, p.first, random() < 0.5 ? 2 : 1),
            last_name: stressTypo(random, p.last, random() < 0.5 ? 2 : 1),
          });
          break;
        case 'stress_first_letter':
          named(kind, p, { ...q, first_name: stressTypo(random, p.first, 1, 1) });
          break;
        case 'stress_street_nick_zip4': {
          const suffix = random() < 0.4 ? titleCase(longSuffix(d)) : random() < 0.5 ? '' : titleCase(d.suffix);
          named(kind, p, {
            ...q,
            street_address: line(d, titleCase(streetTypo(d.streetName, random() < 0.5 ? 2 : 1)), suffix),
            zip_code: zip4(d.zip),
            state: random() < 0.5 ? stateName(d.state) : d.state.toLowerCase(),
            first_name: nickname(p) ?? p.first,
          });
          break;
        }
        case 'stress_street2_across_suffix': {
          // Two edits spanning the name and its suffix: glued, or one on each side.
          const glued = random() < 0.5;
          const word = `${d.streetName.replace(/ /g, '')}${random() < 0.5 ? d.suffix : longSuffix(d)}`;
          const street = glued
            ? titleCase(stressTypo(random, word, 2, 0))
            : titleCase(stressTypo(random, d.streetName.replace(/ /g, ''), 1, 0));
          const suffix = glued ? '' : titleCase(stressTypo(random, random() < 0.5 ? d.suffix : longSuffix(d), 1, 0));
          named(kind, p, { ...q, street_address: line(d, street, suffix) });
          break;
        }
        case 'stress_zip_street':
          named(kind, p, {
            ...q,
            street_address: line(d, titleCase(streetTypo(d.streetName, random() < 0.5 ? 2 : 1))),
            zip_code: zipOff(d.zip),
          });
          break;
        case 'stress_similar_housemate': {
          const choice = random();
          const first = choice < 0.5 ? p.first : choice < 0.75 ? p.first.toUpperCase() : (nickname(p) ?? p.first);
          named(kind, p, { ...q, first_name: first, zip_code: random() < 0.5 ? zip4(d.zip) : d.zip });
          break;
        }
        case 'stress_spanish': {
          const parts = p.last.split(/[ -]/);
          const plain = fold;
          const lastChoice = random();
          const last =
            lastChoice < 0.25
              ? (parts[0] as string)
              : lastChoice < 0.45
                ? parts.join(' ')
                : lastChoice < 0.6
                  ? parts.join('-')
                  : lastChoice < 0.75
                    ? plain(p.last)
                    : accent(plain(p.last));
          const firstChoice = random();
          const first =
            firstChoice < 0.3
              ? (nickname(p) ?? p.first)
              : firstChoice < 0.5
                ? stressTypo(random, plain(p.first), 1)
                : firstChoice < 0.75
                  ? accent(plain(p.first))
                  : plain(p.first);
          named(kind, p, { ...q, first_name: first, last_name: last });
          break;
        }
        case 'stress_unit': {
          const street = random() < 0.5 ? titleCase(streetTypo(d.streetName, 1)) : titleCase(d.streetName);
          const unit = random() < 0.5 ? null : d.unit;
          named(kind, p, { ...q, street_address: line(d, street, titleCase(d.suffix), unit) });
          break;
        }
        case 'absent_stress_relative': {
          // The household's surname, a first name from the same pools nobody there has.
          const household = householdOf(p).map(upperFirst);
          const pools = [SPANISH_F, SPANISH_M, FIRST_F, FIRST_M];
          let first = pick(pick(pools));
          while (household.includes(first)) first = pick(pick(pools));
          queries.push({ kind, property: { ...q, first_name: titleCase(first) }, expected: null, household: [] });
          break;
        }
        case 'absent_stress_stranger': {
          const household = householdOf(p);
          const spanishName = random() < 0.5;
          const draw = () => ({
            first: pick(spanishName ? (random() < 0.5 ? SPANISH_F : SPANISH_M) : random() < 0.5 ? FIRST_F : FIRST_M),
            last: pick(spanishName ? SPANISH_SURNAMES : SURNAMES),
          });
          let name = draw();
          while (household.some((o) => fold(o.last).toUpperCase().includes(name.last) || upperFirst(o) === name.first))
            name = draw();
          queries.push({
            kind,
            property: { ...q, first_name: titleCase(name.first), last_name: titleCase(name.last) },
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
