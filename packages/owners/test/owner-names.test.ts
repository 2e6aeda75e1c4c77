import { describe, expect, it } from '@jest/globals';
import { detectNameOrder, parseOwnerNames, parseOwnerParts } from '../src/index.ts';
import type { OwnerOfRecord } from '../src/index.ts';

/** [kind, first, last] per owner: the parts the trace matches on. */
const brief = (owners: OwnerOfRecord[]): string[][] => owners.map((o) => [o.kind, o.firstName ?? '', o.lastName ?? '']);
const one = (...lines: string[]): string[][] => brief(parseOwnerNames(lines));

describe('parseOwnerNames: people', () => {
  it.each([
    ['SMITH JOHN A', 'John', 'A', 'Smith'],
    ['SMITH, JOHN A', 'John', 'A', 'Smith'],
    ['JOHN A SMITH', 'John', 'A', 'Smith'],
    ['J ROBERT SMITH', 'J', 'Robert', 'Smith'],
    ['Smith, John A.', 'John', 'A', 'Smith'],
  ])('%s', (input, first, middle, last) => {
    const [owner] = parseOwnerNames([input]);
    expect(owner).toMatchObject({
      kind: 'person',
      firstName: first,
      middleName: middle,
      lastName: last,
      asRecorded: input,
    });
  });

  it('writes a readable name and keeps the source text', () => {
    expect(parseOwnerNames(['SMITH JOHN A'])[0]).toEqual({
      kind: 'person',
      name: 'John A Smith',
      asRecorded: 'SMITH JOHN A',
      firstName: 'John',
      middleName: 'A',
      lastName: 'Smith',
    });
  });

  it('reads couples with one or two surnames', () => {
    expect(one('SMITH JOHN A & MARY B')).toEqual([
      ['person', 'John', 'Smith'],
      ['person', 'Mary', 'Smith'],
    ]);
    expect(one('SMITH JOHN & JANE H/W')).toEqual([
      ['person', 'John', 'Smith'],
      ['person', 'Jane', 'Smith'],
    ]);
    expect(one('SMITH JOHN A & JONES MARY')).toEqual([
      ['person', 'John', 'Smith'],
      ['person', 'Mary', 'Jones'],
    ]);
    expect(one('JOHN & MARY SMITH')).toEqual([
      ['person', 'John', 'Smith'],
      ['person', 'Mary', 'Smith'],
    ]);
    expect(one('JOHN A SMITH AND MARY B JONES')).toEqual([
      ['person', 'John', 'Smith'],
      ['person', 'Mary', 'Jones'],
    ]);
  });

  it('drops ETAL / ET AL and keeps generational suffixes', () => {
    expect(one('SMITH JOHN ETAL')).toEqual([['person', 'John', 'Smith']]);
    expect(one('SMITH JOHN ET AL')).toEqual([['person', 'John', 'Smith']]);
    for (const [text, suffix] of [
      ['SMITH JOHN JR', 'Jr'],
      ['SMITH JOHN A SR', 'Sr'],
      ['JOHN SMITH II', 'II'],
      ['SMITH JOHN III', 'III'],
      ['SMITH JOHN IV ETAL', 'IV'],
    ] as const) {
      const [owner] = parseOwnerNames([text]);
      expect(owner).toMatchObject({ kind: 'person', firstName: 'John', lastName: 'Smith', suffix });
    }
  });

  it('keeps compound surnames whole', () => {
    expect(one('DE LA CRUZ JUAN')).toEqual([['person', 'Juan', 'De La Cruz']]);
    expect(one('JUAN DE LA CRUZ')).toEqual([['person', 'Juan', 'De La Cruz']]);
    expect(one('VAN DER BERG PIETER')).toEqual([['person', 'Pieter', 'Van Der Berg']]);
    expect(one("O'BRIEN PATRICK J")).toEqual([['person', 'Patrick', "O'Brien"]]);
    expect(one('MC DONALD RONALD')).toEqual([['person', 'Ronald', 'Mc Donald']]);
    expect(one('SMITH-JONES MARY')).toEqual([['person', 'Mary', 'Smith-Jones']]);
    expect(one('GARCIA LOPEZ JUAN')).toEqual([['person', 'Juan', 'Garcia Lopez']]);
  });

  it('reads BAPTIST and TEMPLE as surnames of people', () => {
    expect(one('BAPTIST JOHN')).toEqual([['person', 'John', 'Baptist']]);
    expect(one('TEMPLE MARY E')).toEqual([['person', 'Mary', 'Temple']]);
  });

  it('reads the second roll line as a co-owner, and ignores care-of lines', () => {
    expect(one('SMITH JOHN', 'JONES MARY')).toEqual([
      ['person', 'John', 'Smith'],
      ['person', 'Mary', 'Jones'],
    ]);
    expect(one('ACME HOLDINGS LLC', 'C/O JOHN SMITH')).toEqual([['company', '', '']]);
    expect(one('SMITH JOHN', 'ATTN MARY JONES')).toEqual([['person', 'John', 'Smith']]);
    expect(one('ACME LLC C/O JOHN SMITH')).toEqual([['company', '', '']]);
    expect(one('SMITH JOHN', '')).toEqual([['person', 'John', 'Smith']]);
    expect(one('SMITH JOHN', 'SMITH JOHN')).toEqual([['person', 'John', 'Smith']]);
  });
});

describe('parseOwnerNames: trusts', () => {
  it.each([
    ['SMITH JOHN A TR', 'John', 'Smith'],
    ['SMITH JOHN & MARY TRS', 'John', 'Smith'],
    ['SMITH JOHN A TRUSTEE', 'John', 'Smith'],
    ['SMITH JOHN A TRUSTEES', 'John', 'Smith'],
    ['SMITH JOHN A REVOCABLE LIVING TRUST', 'John', 'Smith'],
    ['JOHN SMITH TRUST DTD 1/2/03', 'John', 'Smith'],
    ['SMITH JOHN A REVOCABLE LIVING TRU', 'John', 'Smith'],
    ['THE JOHN AND MARY SMITH REVOCABLE TRUST', 'John', 'Smith'],
    ['SMITH FAMILY TRUST', '', 'Smith'],
    ['THE SMITH FAMILY TRUST', '', 'Smith'],
    ['SMITH FAMILY TR', '', 'Smith'],
    // Trust words cut at the roll's field width (21 characters).
    ['THE BRADLAND FAMILY T', '', 'Bradland'],
    ['THE MILLOW FAMILY TRU', '', 'Millow'],
    ['MYERS FAMILY REVOCABL', '', 'Myers'],
    ['WILLIAMS FAMILY LIVIN', '', 'Williams'],
    ['THE BROOKFIELD FAMILY', '', 'Brookfield'],
  ])('%s', (input, first, last) => {
    expect(one(input)).toEqual([['trust', first, last]]);
  });

  it('names the trust readably', () => {
    expect(parseOwnerNames(['SMITH FAMILY TRUST'])[0]?.name).toBe('Smith Family Trust');
    expect(parseOwnerNames(['SMITH JOHN A REVOCABLE LIVING TRU'])[0]?.name).toBe('John A Smith Revocable Living Trust');
    expect(parseOwnerNames(['SMITH JOHN TR'])[0]?.name).toBe('John Smith, Trustee');
  });

  it('joins a trustee on line 1 with the trust named on line 2', () => {
    const owners = parseOwnerNames(['SMITH JOHN TR', 'SMITH FAMILY TRUST']);
    expect(owners).toEqual([
      {
        kind: 'trust',
        name: 'Smith Family Trust',
        asRecorded: 'SMITH JOHN TR SMITH FAMILY TRUST',
        firstName: 'John',
        lastName: 'Smith',
      },
    ]);
    expect(one('SMITH JOHN A & MARY B REVOCABLE', 'LIVING TRUST')).toEqual([['trust', 'John', 'Smith']]);
  });

  it('does not read TRUST inside an agency or a bank as a trust', () => {
    expect(one('HOUSING TRUST FUND CORPORATION')[0]?.[0]).not.toBe('trust');
    expect(one('DEUTSCHE BANK NATIONAL TRUST CO TR')).toEqual([['company', '', '']]);
    expect(one('FIRST AMERICAN TRUST COMPANY')).toEqual([['company', '', '']]);
  });
});

describe('parseOwnerNames: estates', () => {
  it.each([
    ['ESTATE OF JOHN SMITH', 'John', 'Smith'],
    ['ESTATE OF SMITH JOHN A', 'John', 'Smith'],
    ['SMITH JOHN EST', 'John', 'Smith'],
    ['SMITH JOHN A ESTATE', 'John', 'Smith'],
    ['SMITH JOHN /DECD', 'John', 'Smith'],
    ['SMITH JOHN DECEASED', 'John', 'Smith'],
    ['JONES MARY EXEC/OF SMITH JOHN', 'John', 'Smith'],
  ])('%s', (input, first, last) => {
    expect(one(input)).toEqual([['estate', first, last]]);
  });

  it('reads an executor as the estate, named by the executor when the decedent is not', () => {
    expect(one('SMITH JOHN A, AS EXECUTOR')).toEqual([['estate', 'John', 'Smith']]);
  });

  it('does not read REAL ESTATE, ESTATES or an estate HOA as an estate', () => {
    expect(one('OAK ESTATES HOA')).toEqual([['organization', '', '']]);
    expect(one('OAK ESTATE CONDOMINIUM ASSOCIATION')).toEqual([['organization', '', '']]);
    expect(one('SMITH REAL ESTATE LLC')).toEqual([['company', '', '']]);
    expect(one('SMITH JOHN LIFE ESTATE')).toEqual([['person', 'John', 'Smith']]);
  });
});

describe('parseOwnerNames: companies, government, organisations', () => {
  it.each([
    ['ACME HOLDINGS LLC', 'Acme Holdings LLC'],
    ['ACME HOLDINGS L L C', 'Acme Holdings LLC'],
    ['ACME PROPERTIES INC', 'Acme Properties Inc'],
    ['ACME CORP', 'Acme Corp'],
    ['SMITH & JONES CO', 'Smith & Jones Co'],
    ['ACME PARTNERS LP', 'Acme Partners LP'],
    ['ACME LLP', 'Acme LLP'],
    ['ACME LTD', 'Acme Ltd'],
    ['ACME INVESTMENTS', 'Acme Investments'],
    ['ACME REALTY', 'Acme Realty'],
    ['WELLS FARGO BANK N.A.', 'Wells Fargo Bank N.A.'],
    ['123 MAIN STREET ASSOCIATES', '123 Main Street Associates'],
    ['ACME HOLDINGS L', 'Acme Holdings LLC'],
  ])('%s is a company', (input, name) => {
    expect(parseOwnerNames([input])).toEqual([{ kind: 'company', name, asRecorded: input }]);
  });

  it.each([
    'CITY OF NEW YORK',
    'COUNTY OF LOS ANGELES',
    'STATE OF CALIFORNIA',
    'UNITED STATES OF AMERICA',
    'NEW YORK CITY HOUSING AUTHORITY',
    'DEPT OF TRANSPORTATION',
  ])('%s is government', (input) => {
    expect(one(input)).toEqual([['government', '', '']]);
  });

  it.each([
    'FIRST BAPTIST CHURCH',
    'FIRST BAPTIST CHURCH OF SPRINGFIELD INC',
    'TEMPLE BETH EL',
    'ST JOHNS UNIVERSITY',
    'OAKWOOD HOMEOWNERS ASSOCIATION',
    'THE 123 MAIN STREET CONDOMINIUM',
    'LAKE ESTATES HOA INC',
  ])('%s is an organization', (input) => {
    expect(one(input)).toEqual([['organization', '', '']]);
  });

  it('skips strings that name no owner', () => {
    expect(parseOwnerNames(['UNAVAILABLE OWNER'])).toEqual([]);
    expect(parseOwnerNames(['', '   '])).toEqual([]);
    expect(parseOwnerNames(['C/O JOHN SMITH'])).toEqual([]);
  });

  it('bounds the work on a huge string', () => {
    const owners = parseOwnerNames(['SMITH JOHN & '.repeat(10_000)]);
    expect(owners.length).toBeLessThanOrEqual(60);
  });
});

describe('parseOwnerParts', () => {
  it('takes a plain first/last pair as given', () => {
    expect(parseOwnerParts([{ firstName: 'John A', lastName: 'Smith' }])).toEqual([
      {
        kind: 'person',
        name: 'John A Smith',
        asRecorded: 'John A Smith',
        firstName: 'John',
        middleName: 'A',
        lastName: 'Smith',
      },
    ]);
  });

  it('parses a last name holding a whole owner string', () => {
    expect(brief(parseOwnerParts([{ lastName: 'SMITH FAMILY TRUST' }]))).toEqual([['trust', '', 'Smith']]);
    expect(brief(parseOwnerParts([{ firstName: '', lastName: 'ACME HOLDINGS LLC' }]))).toEqual([['company', '', '']]);
    expect(brief(parseOwnerParts([{ lastName: 'SMITH JOHN & MARY' }]))).toEqual([
      ['person', 'John', 'Smith'],
      ['person', 'Mary', 'Smith'],
    ]);
  });

  it('reads two owners and a couple in the first-name column', () => {
    expect(
      brief(
        parseOwnerParts([
          { firstName: 'JOHN & MARY', lastName: 'SMITH' },
          { firstName: 'PAT', lastName: 'JONES' },
          { firstName: null, lastName: null },
        ]),
      ),
    ).toEqual([
      ['person', 'John', 'Smith'],
      ['person', 'Mary', 'Smith'],
      ['person', 'Pat', 'Jones'],
    ]);
  });
});

describe('parseOwnerNames: roll lines and order evidence (forms seen in the Philadelphia and NYC rolls)', () => {
  it('joins an entity name wrapped onto the second line', () => {
    expect(one('REDEVELOPMENT AUTHORITY', 'OF PHILADELPHIA')).toEqual([['government', '', '']]);
    expect(one('GREATER ST THOMAS', 'BAPTIST CHURCH')).toEqual([['organization', '', '']]);
    expect(one('LIBERTY FEDERAL SAVING', 'LOAN ASSOC')).toEqual([['company', '', '']]);
    expect(parseOwnerNames(['GREATER ST THOMAS', 'BAPTIST CHURCH'])[0]?.name).toBe('Greater St Thomas Baptist Church');
  });

  it('reads a second line of given names as the first line’s spouse', () => {
    expect(one('ZULER BEN', 'MARY')).toEqual([
      ['person', 'Ben', 'Zuler'],
      ['person', 'Mary', 'Zuler'],
    ]);
    expect(one('STEEN TERRY L', 'ANITA I')).toEqual([
      ['person', 'Terry', 'Steen'],
      ['person', 'Anita', 'Steen'],
    ]);
  });

  it('takes the order from a surname two owners share', () => {
    expect(one('JOSEPH CIRO', 'DOMINIC CIRO')).toEqual([
      ['person', 'Joseph', 'Ciro'],
      ['person', 'Dominic', 'Ciro'],
    ]);
    expect(one('ODELL PATRICK', 'ODELL RYAN')).toEqual([
      ['person', 'Patrick', 'Odell'],
      ['person', 'Ryan', 'Odell'],
    ]);
  });

  it('reads an uncertain person in the order the record’s certain one is written', () => {
    expect(one('STANLEY DEBORAH HAGAN', 'HAGAN LINDA N')).toEqual([
      ['person', 'Deborah', 'Stanley'],
      ['person', 'Linda', 'Hagan'],
    ]);
  });

  it('keeps the roll order LAST FIRST unless the words clearly say otherwise', () => {
    expect(one('KELLY JASHAWN')).toEqual([['person', 'Jashawn', 'Kelly']]);
    expect(one('LEE HONGZHE')).toEqual([['person', 'Hongzhe', 'Lee']]);
    expect(one('LU YANG QI', 'LIU HUI LING')).toEqual([
      ['person', 'Yang', 'Lu'],
      ['person', 'Hui', 'Liu'],
    ]);
    expect(one('LAM NGAN KIM')).toEqual([['person', 'Ngan', 'Lam']]);
    expect(one('LE JASON HAN')).toEqual([['person', 'Jason', 'Le']]);
    expect(one('CARLTON PARSONS')).toEqual([['person', 'Carlton', 'Parsons']]);
    expect(one('DOROTHY ELLIS  S/W')).toEqual([['person', 'Dorothy', 'Ellis']]);
  });

  it('drops role notes and titles, and keeps MD as a name unless it ends the name', () => {
    expect(one('GENOVESE, FRANK R/GUARDIAN')).toEqual([['person', 'Frank', 'Genovese']]);
    expect(one('PAMELA DE SIO DISTRIB')).toEqual([['person', 'Pamela', 'De Sio']]);
    expect(one('AGNESE, MR PASQUALE')).toEqual([['person', 'Pasquale', 'Agnese']]);
    expect(one('CHOWDHURY MD MIZANUL HOQUE')).toEqual([['person', 'Md', 'Chowdhury']]);
    expect(parseOwnerNames(['SMITH JOHN A MD'])[0]).toMatchObject({
      firstName: 'John',
      lastName: 'Smith',
      suffix: 'MD',
    });
    expect(one('LAI, LI NA')).toEqual([['person', 'Li', 'Lai']]);
  });

  it('reads a street in a company name as a street, and banks in their forms', () => {
    expect(one('639 UNION STREET LLC')).toEqual([['company', '', '']]);
    expect(one('123 CHURCH ST LLC')).toEqual([['company', '', '']]);
    expect(one('CITIBANK N A')).toEqual([['company', '', '']]);
    expect(one('TERRACE SAVS & LOANASSN')).toEqual([['company', '', '']]);
    expect(one('LSF10 MASTER PARTICIPATION TRUST')).toEqual([['company', '', '']]);
  });

  it('reads one word, a leading THE and a name cut after its comma as a business', () => {
    expect(one('MERS')).toEqual([['company', '', '']]);
    expect(one('THE NEW YORK FOUNDLIN')[0]?.[0]).not.toBe('person');
    expect(one('1857 ENTERPRISE,')).toEqual([['company', '', '']]);
    expect(one('URBAN-SERS ATLANTIC,')).toEqual([['company', '', '']]);
    expect(brief(parseOwnerParts([{ lastName: 'SMITH' }]))).toEqual([['person', '', 'Smith']]);
  });

  it('reads congregations and executors written the short way', () => {
    expect(one('THE SINAI ASSEMBLIES', 'OF GOD')).toEqual([['organization', '', '']]);
    expect(one('GARDELLA, DELORES EX')).toEqual([['estate', 'Delores', 'Gardella']]);
    expect(one('LOMBARDI, FAY(TRSTEE)')).toEqual([['trust', 'Fay', 'Lombardi']]);
    expect(one('HOYT, NATHAN B./DECD')).toEqual([['estate', 'Nathan', 'Hoyt']]);
  });
});

describe('detectNameOrder and the order option', () => {
  const listProvider = [['JOHN A SMITH'], ['MARY B JONES', 'PETER K JONES'], ['AMEDEO IESU'], ['ACME HOLDINGS LLC']];
  const roll = [['SMITH JOHN A'], ['JONES MARY B', 'JONES PETER'], ['IESU AMEDEO'], ['SMITH, JANE']];

  it('finds the order a file writes its people in', () => {
    expect(detectNameOrder(listProvider)).toBe('firstLast');
    expect(detectNameOrder(roll)).toBe('lastFirst');
    expect(detectNameOrder([])).toBe('lastFirst');
    expect(detectNameOrder([['ACME LLC'], ['CITY OF NEW YORK']])).toBe('lastFirst');
  });

  it('reads an undecided person in the given order, and a certain one as written', () => {
    expect(brief(parseOwnerNames(['AMEDEO IESU']))).toEqual([['person', 'Iesu', 'Amedeo']]);
    expect(brief(parseOwnerNames(['AMEDEO IESU'], { order: 'firstLast' }))).toEqual([['person', 'Amedeo', 'Iesu']]);
    expect(brief(parseOwnerNames(['IESU AMEDEO X'], { order: 'firstLast' }))).toEqual([['person', 'Amedeo', 'Iesu']]);
    expect(brief(parseOwnerNames(['IESU, AMEDEO'], { order: 'firstLast' }))).toEqual([['person', 'Amedeo', 'Iesu']]);
    expect(brief(parseOwnerParts([{ lastName: 'AMEDEO IESU & MARIA' }], { order: 'firstLast' }))).toEqual([
      ['person', 'Amedeo', 'Iesu'],
      ['person', 'Maria', 'Iesu'],
    ]);
  });
});

describe('parseOwnerNames: trustees and trusts over two lines (forms of the Philadelphia roll)', () => {
  it('keeps two trustees as two owners', () => {
    expect(one('SHMAYA SHAUL TR', 'SHMAYA ESTER TR')).toEqual([
      ['trust', 'Shaul', 'Shmaya'],
      ['trust', 'Ester', 'Shmaya'],
    ]);
  });

  it('joins trustee and trust in either order, reached through the trustee as the roll spells them', () => {
    const [trust] = parseOwnerNames(['BUCHANAN MICHELE WALDEN TR', 'MICHELE WALDEN BUCHANA LIVING TRUST']);
    expect(trust).toMatchObject({ kind: 'trust', firstName: 'Michele', lastName: 'Buchanan' });
    expect(trust?.name).toBe('Michele Walden Buchana Living Trust');
    expect(one('NON EXEMPT TRUST FBO JOHN H REILLY III', 'REILLY JOHN H TR')).toEqual([['trust', 'John', 'Reilly']]);
    expect(one('PLAZA LORENA TR', 'LORENA A PLAZA REVOCABLE AGREEMENT OF TR')).toEqual([['trust', 'Lorena', 'Plaza']]);
    expect(one('MARGARET A WILLIAMS', 'IN TRUST')).toEqual([['trust', 'Margaret', 'Williams']]);
  });

  it('keeps a trust for someone else apart from its trustee', () => {
    expect(one('REVOCABLE TRUST OF WILLIE J YOUNG', 'MC CRAY MARILYN O TR')).toEqual([
      ['trust', 'Willie', 'Young'],
      ['trust', 'Marilyn', 'Mc Cray'],
    ]);
    expect(parseOwnerNames(['REVOCABLE TRUST OF WILLIE J YOUNG'])[0]?.name).toBe('Revocable Trust of Willie J Young');
  });

  it('reads years, residence trusts and names after ESTATE OF in natural order', () => {
    expect(one('VICTOR L SHARP JR 1989 TRUST')).toEqual([['trust', 'Victor', 'Sharp']]);
    expect(one('JOHN M KUHAR RESIDENCE TRUST')).toEqual([['trust', 'John', 'Kuhar']]);
    expect(one('ESTATE OF GEORGE MCFARLAND')).toEqual([['estate', 'George', 'McFarland']]);
    expect(one('MCFARLAND GEORGE ESTATE OF')).toEqual([['estate', 'George', 'McFarland']]);
    expect(one('DEL GAISO JOHN TR')).toEqual([['trust', 'John', 'Del Gaiso']]);
  });

  it('reads banks as trustees, real-estate firms and street-named trusts', () => {
    expect(one('HSBC USA NA TR')).toEqual([['company', '', '']]);
    expect(one('U S BANK NATIONAL ASSOCIATION TR')).toEqual([['company', '', '']]);
    expect(one('HOUSE DOCTOR REAL ESTATE')).toEqual([['company', '', '']]);
    expect(one('6927 RODNEY STREET TRUST')).toEqual([['trust', '', '']]);
    expect(parseOwnerNames(['6927 RODNEY STREET TRUST'])[0]?.name).toBe('6927 Rodney Street Trust');
    expect(one('GST NON EXEMPT PA RE TRUS', 'REILLY JOHN H III TR')[0]?.[0]).toBe('trust');
  });
});

describe('parseOwnerNames: couples written out in full', () => {
  it('reads each person of a couple that writes the surname twice or once at the end', () => {
    expect(one('JOHN A. & MARY B. SMITH')).toEqual([
      ['person', 'John', 'Smith'],
      ['person', 'Mary', 'Smith'],
    ]);
    expect(one('JOHN SMITH AND MARY SMITH')).toEqual([
      ['person', 'John', 'Smith'],
      ['person', 'Mary', 'Smith'],
    ]);
    expect(one('SMITH JOHN & SMITH MARY')).toEqual([
      ['person', 'John', 'Smith'],
      ['person', 'Mary', 'Smith'],
    ]);
    expect(one('JONES MARY & SMITH ROBERT H/W')).toEqual([
      ['person', 'Mary', 'Jones'],
      ['person', 'Robert', 'Smith'],
    ]);
  });

  it('reads Vietnamese VAN and THI as middle names', () => {
    expect(parseOwnerNames(['NGUYEN VAN THANH'])[0]).toMatchObject({
      firstName: 'Thanh',
      middleName: 'Van',
      lastName: 'Nguyen',
    });
    expect(one('NGUYEN THI MAI & NGUYEN VAN HUNG')).toEqual([
      ['person', 'Mai', 'Nguyen'],
      ['person', 'Hung', 'Nguyen'],
    ]);
  });

  it("reads a trust's or estate's qualifier cut at the field width after a person's name", () => {
    expect(one('DONNA MARTIN REVOCABL')).toEqual([['trust', 'Donna', 'Martin']]);
    expect(one('LOPEZ BENJAMIN LIVING')).toEqual([['trust', 'Benjamin', 'Lopez']]);
    expect(one('CHRISTINE CRANWOOD RE')).toEqual([['trust', 'Christine', 'Cranwood']]);
    expect(one('JACKSON PATRICK JR DE')).toEqual([['estate', 'Patrick', 'Jackson']]);
    expect(one('GLENWORTH BETTY ESTAT')).toEqual([['estate', 'Betty', 'Glenworth']]);
    expect(parseOwnerNames(['WHITWORTH-ASHCOMBE FA'])[0]).toMatchObject({
      kind: 'trust',
      lastName: 'Whitworth-Ashcombe',
    });
    // Short lines are not cut, and a given name or surname last stays a name.
    expect(one('SMITH JOHN DE')).toEqual([['person', 'John', 'Smith']]);
    expect(one('WASHINGTON BARBARA LEE')).toEqual([['person', 'Barbara', 'Washington']]);
  });

  it('reads two surnames before FAMILY as the family name, not a given name and a surname', () => {
    expect(parseOwnerNames(['GARCIA LOPEZ FAMILY REVOCABLE TRUST'])[0]).toMatchObject({
      kind: 'trust',
      lastName: 'Garcia Lopez',
    });
    expect(parseOwnerNames(['GARCIA LOPEZ FAMILY REVOCABLE TRUST'])[0]?.firstName).toBeUndefined();
    expect(parseOwnerNames(['JOHN SMITH FAMILY TRUST'], { order: 'firstLast' })[0]).toMatchObject({
      kind: 'trust',
      firstName: 'John',
      lastName: 'Smith',
    });
  });
});
