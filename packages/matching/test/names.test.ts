import { describe, expect, it } from '@jest/globals';
import {
  areNicknames,
  editDistance,
  formalNamesFor,
  isKnownGivenName,
  jaroWinkler,
  nameScore,
  nameTokens,
  normalizePerson,
} from '../src/index.ts';

describe('jaroWinkler', () => {
  it('matches the published reference values', () => {
    // Winkler's classic examples.
    expect(jaroWinkler('MARTHA', 'MARHTA')).toBeCloseTo(0.961, 3);
    expect(jaroWinkler('DWAYNE', 'DUANE')).toBeCloseTo(0.84, 2);
    expect(jaroWinkler('DIXON', 'DICKSONX')).toBeCloseTo(0.813, 3);
  });

  it('is 1 for equal strings, 0 for disjoint or empty ones, and symmetric', () => {
    expect(jaroWinkler('JOHN', 'JOHN')).toBe(1);
    expect(jaroWinkler('ABC', 'XYZ')).toBe(0);
    expect(jaroWinkler('', 'JOHN')).toBe(0);
    expect(jaroWinkler('JONH', 'JOHN')).toBeCloseTo(jaroWinkler('JOHN', 'JONH'), 12);
  });
});

describe('nameTokens', () => {
  it.each([
    ['José', ['JOSE']],
    ["O'Brien", ['OBRIEN']],
    ['Smith Jr.', ['SMITH']],
    ['Smith, III', ['SMITH']],
    ['García-López', ['GARCIA', 'LOPEZ']],
    ['Mr. John', ['JOHN']],
    ['J.', ['J']],
    ['  ', []],
    [null, []],
  ])('%s → %j', (input, tokens) => {
    expect(nameTokens(input)).toEqual(tokens);
  });

  it('flags organisations', () => {
    expect(normalizePerson(null, 'Smith Family Trust').entity).toBe(true);
    expect(normalizePerson('Acme', 'Holdings LLC').entity).toBe(true);
    expect(normalizePerson('John', 'Smith').entity).toBe(false);
  });
});

describe('nicknames', () => {
  it.each([
    ['BOB', 'ROBERT'],
    ['BOBBY', 'ROB'],
    ['BILL', 'WILLIAM'],
    ['LIZ', 'ELIZABETH'],
    ['BETH', 'ELIZABETH'],
    ['PEGGY', 'MARGARET'],
    ['JIM', 'JAMES'],
    ['DICK', 'RICHARD'],
    ['CHUCK', 'CHARLES'],
    ['SALLY', 'SARAH'],
    ['TED', 'EDWARD'],
    ['PACO', 'FRANCISCO'],
  ])('%s ~ %s (both directions)', (a, b) => {
    expect(areNicknames(a, b)).toBe(true);
    expect(areNicknames(b, a)).toBe(true);
  });

  it('goes one hop only: names sharing a nickname are not equivalent', () => {
    expect(areNicknames('AL', 'ALBERT')).toBe(true);
    expect(areNicknames('AL', 'ALAN')).toBe(true);
    expect(areNicknames('ALBERT', 'ALAN')).toBe(false);
    expect(areNicknames('ROBERT', 'WILLIAM')).toBe(false);
  });

  it('names the formal names a nickname belongs to', () => {
    expect(formalNamesFor('PEGGY')).toEqual(['MARGARET']);
  });
});

describe('nameScore', () => {
  const smith = { first: 'John', last: 'Smith' };

  it('reports the level of each field', () => {
    expect(nameScore({ first: 'JOHN', last: 'smith' }, smith)).toEqual({
      reasons: ['last_name_exact', 'first_name_exact'],
      first: 'exact',
      last: 'exact',
      swapped: null,
    });
  });

  it.each([
    [{ first: 'Bob', last: 'Jones' }, { first: 'Robert', last: 'Jones' }, 'nickname'],
    [{ first: 'Liz', last: 'Taylor' }, { first: 'Elizabeth', last: 'Taylor' }, 'nickname'],
    [{ first: 'Cathy', last: 'Jones' }, { first: 'Catherine', last: 'Jones' }, 'nickname'],
    [{ first: 'Ry', last: 'Jones' }, { first: 'Ryan', last: 'Jones' }, 'nickname'],
    [{ first: 'Chuy', last: 'Lopez' }, { first: 'Jesus', last: 'Lopez' }, 'nickname'],
    [{ first: 'Toño', last: 'Lopez' }, { first: 'Antonio', last: 'Lopez' }, 'nickname'],
    [{ first: 'J', last: 'Smith' }, smith, 'initial'],
    [{ first: 'J.', last: 'Smith' }, smith, 'initial'],
    [{ first: 'Jonh', last: 'Smith' }, smith, 'typo1'],
    [{ first: 'Jnoh', last: 'Smith' }, smith, 'phonetic'],
    [{ first: 'Christopher', last: 'Smith' }, { first: 'Kristofer', last: 'Smith' }, 'phonetic'],
    [{ first: 'Margarte', last: 'Smith' }, { first: 'Margaret', last: 'Smith' }, 'typo1'],
    [{ first: 'Margerat', last: 'Smith' }, { first: 'Margaret', last: 'Smith' }, 'phonetic'],
    [{ first: 'Emamda', last: 'Smith' }, { first: 'Amanda', last: 'Smith' }, 'typo2'],
    [{ first: 'Jose', last: 'Pena' }, { first: 'José', last: 'Peña' }, 'exact'],
    [{ first: 'Robert', last: 'Smith' }, { first: 'J Robert', last: 'Smith' }, 'exact'],
    [{ first: 'John A', last: 'Smith' }, smith, 'exact'],
    [{ first: 'Mary Ann', last: 'Smith' }, { first: 'Maryann', last: 'Smith' }, 'exact'],
    [{ first: 'Mary', last: 'Smith' }, smith, 'different'],
  ])('%j vs %j → first %s', (query, candidate, level) => {
    expect(nameScore(query, candidate).first).toBe(level);
  });

  it.each([
    [{ last: 'Smith Jr' }, smith, 'exact'],
    [{ last: 'McDonald' }, { first: 'Ann', last: 'Mc Donald' }, 'exact'],
    [{ last: 'De La Cruz' }, { first: 'Ann', last: 'Delacruz' }, 'exact'],
    [{ last: "O'Brien" }, { first: 'Ann', last: 'OBRIEN' }, 'exact'],
    [{ last: 'Hart Carrion' }, { first: 'Ann', last: 'Hart-Carrion' }, 'exact'],
    [{ last: 'Hartcarrion' }, { first: 'Ann', last: 'Hart Carrion' }, 'exact'],
    [{ last: 'Garcia' }, { first: 'Ann', last: 'García-López' }, 'compound'],
    [{ last: 'Hart' }, { first: 'Ann', last: 'Hartcarrion' }, 'compound'],
    [{ last: 'Smtih' }, smith, 'typo1'],
    [{ last: 'Johnson' }, { first: 'Ann', last: 'Jonson' }, 'typo1'],
    [{ last: 'Wiliamsen' }, { first: 'Ann', last: 'Williamson' }, 'phonetic'],
    [{ last: 'Kowalksi' }, { first: 'Ann', last: 'Kowalski' }, 'typo1'],
    [{ last: 'Smyth' }, { first: 'Ann', last: 'Jones' }, 'different'],
  ])('%j vs %j → last %s', (query, candidate, level) => {
    expect(nameScore(query, candidate).last).toBe(level);
  });

  it('reports absent names instead of guessing', () => {
    expect(nameScore({}, smith)).toEqual({ reasons: ['name_absent'], first: 'absent', last: 'absent', swapped: null });
    expect(nameScore({ last: 'Smith' }, smith).reasons).toEqual(['last_name_exact', 'first_name_absent']);
  });

  it('recognises first and last swapped', () => {
    expect(nameScore({ first: 'Smith', last: 'John' }, smith).reasons).toEqual(['name_swapped']);
  });

  it('skips person matching for an organisation owner', () => {
    expect(nameScore({ last: 'Smith Family Trust' }, smith).reasons).toEqual(['name_entity']);
  });
});

describe('robustness found by the stress evaluation', () => {
  const first = (a: string, b: string) => nameScore({ first: a, last: 'Lane' }, { first: b, last: 'Lane' }).first;

  it('counts a slip and a swap next to it as two edits (Damerau–Levenshtein, not restricted)', () => {
    expect(editDistance('ROSJ', 'ROJAS', 3)).toBe(2);
    expect(editDistance('ASHFDO', 'ASHFORD', 3)).toBe(2);
    expect(editDistance('CA', 'ABC', 3)).toBe(2);
    expect(editDistance('KITTEN', 'SITTING', 5)).toBe(3);
    expect(editDistance('SMITH', 'XXXXXX', 2)).toBe(3);
    expect(nameScore({ first: 'Jorge', last: 'Rosj' }, { first: 'Jorge', last: 'Rojas' }).last).toBe('typo2');
  });

  it('takes two known given names two edits apart for two people, a garbled name for a typo', () => {
    expect(isKnownGivenName('CARLA')).toBe(true);
    const pairs: [string, string][] = [
      ['Maria', 'Carla'],
      ['Adam', 'Alan'],
      ['Miguel', 'Manuel'],
      ['Kayla', 'Paula'],
      ['Silvia', 'Olivia'],
    ];
    for (const [a, b] of pairs) expect({ a, b, level: first(a, b) }).toEqual({ a, b, level: 'different' });
    expect(first('Gaabroela', 'Gabriela')).toBe('phonetic');
    expect(first('Natlaei', 'Natalie')).not.toBe('different');
    expect(first('Jhon', 'John')).toBe('typo1');
    expect(first('Sean', 'Shaun')).not.toBe('different');
  });

  it('does not take a short shared alternate sound code for sounding alike ("John"/"Ana")', () => {
    expect(first('John', 'Ana')).toBe('different');
  });
});
