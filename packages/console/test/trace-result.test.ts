/**
 * The trace result as the console renders it (React to static HTML, no browser): owners
 * against residents, the owners of record with their kind, the mailing address used, each
 * person's current address and history, phone dates — and every value escaped.
 */
import { describe, expect, it } from '@jest/globals';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { PropertyResponse } from '../app/api.ts';
import { RoleBadges, TraceResultView } from '../app/components/trace-result.tsx';
import { FIELDS, propertyFromForm, type Field } from '../app/fields.ts';
import { seenSpan } from '../app/format.ts';
import { noOwnerAmong, rolesOf } from '../app/owners.ts';

const home = { street_address: '5 Oak Rd', city: 'Austin', state: 'TX', zip_code: '78701' };
const away = { street_address: '9 Elm St', city: 'Dallas', state: 'TX', zip_code: '75201' };
type Person = PropertyResponse['results'][number];
const phone = (number: string, first_seen?: string, last_seen?: string) => ({
  number,
  type: 'mobile' as const,
  dnc: false,
  litigator: false,
  ...(first_seen ? { first_seen } : {}),
  ...(last_seen ? { last_seen } : {}),
});

const owner: Person = {
  first_name: 'Ann',
  middle_name: 'B',
  last_name: 'Lee',
  confidence: 0.93,
  reasons: ['owner_of_record', 'owner_tie_mailing'],
  owner: true,
  resident: false,
  current_address: away,
  addresses: [
    { ...away, first_seen: '2019-05' },
    { ...home, first_seen: '2008', last_seen: '2019-04' },
  ],
  phones: [phone('+15125550101', '2019', '2026-10'), phone('+15125550102', undefined, '2012')],
  emails: [],
};
const tenant: Person = {
  first_name: 'Tia',
  last_name: 'Tenant',
  confidence: 0.7,
  reasons: ['address'],
  owner: false,
  resident: true,
  current_address: home,
  addresses: [{ ...home, first_seen: '2022' }],
  phones: [phone('+15125550103', '2022')],
  emails: [],
};
const response = (over: Partial<PropertyResponse>): PropertyResponse => ({
  id: 7,
  status: 'completed',
  results: [],
  truncated: false,
  property: { ...home, apn: '0123-45' },
  created_at: '2026-11-25T08:00:00Z',
  ...over,
});
const render = (result: PropertyResponse) => renderToStaticMarkup(createElement(TraceResultView, { result }));
/** The markup as a reader sees it: tags gone, entities of text decoded. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('trace result view', () => {
  it('shows the owners of record with their kind, the mailing address used, and owners apart from residents', () => {
    const html = render(
      response({
        results: [owner, tenant],
        owners_of_record: [
          { kind: 'person', name: 'Ann B Lee', as_recorded: 'LEE ANN B', first_name: 'Ann', last_name: 'Lee' },
          { kind: 'trust', name: 'Lee Family Trust', as_recorded: 'LEE FAMILY TRUST', last_name: 'Lee' },
        ],
        mailing_address: away,
      }),
    );
    const shown = text(html);
    expect(shown).toContain('Owners of record');
    expect(shown).toMatch(/person Ann B Lee · recorded as “LEE ANN B”/);
    expect(shown).toMatch(/trust Lee Family Trust/);
    expect(shown).toContain('Mailing address used: 9 Elm St, Dallas, TX 75201');
    expect(shown).toContain('APN 0123-45');
    // The owner lives elsewhere; the tenant lives there and is no owner.
    expect(shown).toMatch(/Ann B Lee Owner Lives elsewhere best match/);
    expect(shown).toMatch(/Tia Tenant Resident 70 %/);
    expect(shown).not.toMatch(/Tia Tenant Owner/);
    expect(shown).toContain('Current address: 9 Elm St, Dallas, TX 75201');
    // History newest first, with its dates; phones with theirs.
    expect(shown).toMatch(/9 Elm St, Dallas, TX 75201 since 2019-05 5 Oak Rd, Austin, TX 78701 2008 – 2019-04/);
    expect(shown).toMatch(/\(512\) 555-0101 mobile 2019 – 2026-10/);
    expect(shown).toMatch(/\(512\) 555-0102 mobile until 2012/);
    // Phones are tel: links in E.164 (styled never to break inside: .phone, nowrap).
    expect(html).toContain('<a class="phone" href="tel:+15125550101">(512) 555-0101</a>');
    expect(html).toContain('aria-label="Address history of Ann B Lee"');
    expect(shown).not.toContain('None of the people found is an owner of record');
  });

  it('says when the record names owners but only residents were found (a company, an owner not on file)', () => {
    const shown = text(
      render(
        response({
          results: [tenant],
          owners_of_record: [{ kind: 'company', name: 'Acme Holdings LLC', as_recorded: 'ACME HOLDINGS LLC' }],
        }),
      ),
    );
    expect(shown).toMatch(/company Acme Holdings LLC/);
    expect(shown).not.toContain('recorded as');
    expect(shown).toContain(
      "None of the people found is an owner of record: they live at the property, and their phones are not the owner's.",
    );
    const none = text(
      render(
        response({
          status: 'no_match',
          error: 'no owner found',
          owners_of_record: [{ kind: 'person', name: 'Ann Lee', as_recorded: 'LEE ANN' }],
        }),
      ),
    );
    expect(none).toContain('Ann Lee');
    expect(none).toContain('No owner found at this address.');
  });

  it('renders a result from before the owner model as before: no badge, no owner facts', () => {
    const { owner: _o, resident: _r, current_address: _c, addresses: _a, middle_name: _m, ...old } = owner;
    const shown = text(render(response({ results: [{ ...old, phones: [phone('+15125550101')] }] })));
    expect(shown).toMatch(/Ann Lee best match/);
    expect(shown).not.toMatch(/Owner|Resident|Owners of record|Current address|Address history/);
    expect(shown).toMatch(/\(512\) 555-0101 mobile — no no/);
  });

  it('escapes every value: names, owner strings, addresses and dates stay text', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const html = render(
      response({
        property: { ...home, street_address: `${evil} St`, apn: evil },
        results: [
          {
            ...owner,
            first_name: evil,
            current_address: { ...away, city: evil },
            addresses: [{ ...away, street_address: evil, first_seen: evil }],
            phones: [phone(evil, evil, '<b>2020</b>')],
            emails: [`${evil}@example.com`],
          },
        ],
        owners_of_record: [{ kind: 'person', name: evil, as_recorded: `<script>alert(1)</script>` }],
        mailing_address: { ...away, zip_code: evil },
        error: evil,
      }),
    );
    expect(html).not.toMatch(/<img|<script|<b>/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('owner roles', () => {
  it('names owner, resident, an owner living elsewhere and a former resident; nothing when the result does not say', () => {
    const labels = (p: Partial<Person>) => rolesOf({ ...tenant, ...p }).map((r) => r.label);
    expect(labels({ owner: true, resident: true })).toEqual(['Owner', 'Resident']);
    expect(labels({ owner: true, resident: false })).toEqual(['Owner', 'Lives elsewhere']);
    expect(labels({ owner: false, resident: true })).toEqual(['Resident']);
    expect(labels({ owner: false, resident: false })).toEqual(['Former resident']);
    expect(rolesOf({ ...owner, owner: undefined, resident: undefined })).toEqual([]);
    // As History's best-match cell shows them.
    expect(text(renderToStaticMarkup(createElement(RoleBadges, { person: owner })))).toBe(' Owner Lives elsewhere ');
  });

  it('flags "no owner among them" only when a record names owners and people were found', () => {
    const owners = [{ kind: 'person' as const, name: 'Ann Lee', as_recorded: 'LEE ANN' }];
    expect(noOwnerAmong(response({ results: [tenant], owners_of_record: owners }))).toBe(true);
    expect(noOwnerAmong(response({ results: [owner, tenant], owners_of_record: owners }))).toBe(false);
    expect(noOwnerAmong(response({ results: [tenant] }))).toBe(false);
    expect(noOwnerAmong(response({ results: [], owners_of_record: owners }))).toBe(false);
  });

  it('writes dates at the precision given', () => {
    expect(seenSpan('2008', '2019-04')).toBe('2008 – 2019-04');
    expect(seenSpan('2019', '2019')).toBe('2019');
    expect(seenSpan('2019-05')).toBe('since 2019-05');
    expect(seenSpan(undefined, '2012')).toBe('until 2012');
    expect(seenSpan()).toBe('—');
  });
});

describe('trace form', () => {
  const form = (values: Partial<Record<Field, string>>) =>
    ({ ...Object.fromEntries(FIELDS.map((f) => [f, ''])), ...values }) as Record<Field, string>;

  it('sends the six fields, the mailing address nested and the APN, trimmed, leaving out what is empty', () => {
    expect(propertyFromForm(form({ ...home, first_name: ' ' }))).toEqual(home);
    expect(
      propertyFromForm(
        form({
          ...home,
          last_name: ' SMITH FAMILY TRUST ',
          mailing_street_address: ' PO Box 12 ',
          mailing_city: 'Dallas',
          mailing_state: 'TX',
          mailing_zip_code: '75201',
          apn: ' 0123-45 ',
        }),
      ),
    ).toEqual({
      ...home,
      last_name: 'SMITH FAMILY TRUST',
      mailing_address: { street_address: 'PO Box 12', city: 'Dallas', state: 'TX', zip_code: '75201' },
      apn: '0123-45',
    });
  });

  it('sends a partly filled mailing address as it is, for the API to name the missing part', () => {
    expect(propertyFromForm(form({ ...home, mailing_city: 'Dallas' })).mailing_address).toEqual({
      street_address: '',
      city: 'Dallas',
      state: '',
      zip_code: '',
    });
  });
});
