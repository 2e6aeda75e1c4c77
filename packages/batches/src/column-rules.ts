/**
 * How input columns feed the Property fields: canonical names and the headers of the list
 * exports investors bring (PropStream, BatchData/BatchLeads, DealMachine, REISift,
 * BatchSkipTracing, county rolls and assessor files), matched after folding case, spaces,
 * digits' separators and punctuation (`Owner 1 First Name`, `owner1_first_name` and
 * `OWNER_1_FIRST_NAME` are one name), and the warnings a mapping deserves before a batch
 * starts. Pure (no Node or server imports): the web console bundles this file to show
 * exactly the server's rules.
 */
import {
  MAILING_FIELDS,
  MAPPING_FIELDS,
  PROPERTY_FIELDS,
  type MappingField,
  type PropertyField,
} from '@skiptrace/contracts/property-fields';

/**
 * The Property fields an input column can feed (@skiptrace/contracts); the four `mailing_*`
 * columns feed the request's `mailing_address` (the owner's, as absentee-owner lists carry it).
 */
export const FIELDS = PROPERTY_FIELDS;
export type PropertyColumnField = PropertyField;
export { MAILING_FIELDS };

/**
 * What a column can be mapped to: the Property fields and `owner_name`, the owner's whole
 * name in one column (DealMachine's `owner_1_name`, a roll's `OWNER`), split into first and
 * last name for rows whose own first/last name columns are empty (ingest.ts).
 */
export { MAPPING_FIELDS };
export type Field = MappingField;

/** Lower case, runs of anything but letters and digits become one `_`: "Property Address" → "property_address". */
export const normalizeName = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/**
 * The key a header is compared by: lower case with every character but letters and digits
 * dropped, so case, spaces, underscores, hyphens, dots, `#` and the separator before a
 * digit do not matter ("Owner 1 First Name" → "owner1firstname", "Zip-Code" → "zipcode").
 */
export const foldName = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '');

/**
 * Header spellings by field, folded (foldName), most specific first. The one list of the
 * batch upload, the console's pre-fill and the CLI: extend it here.
 */
const ALIASES: Record<Field, string[]> = {
  street_address: [
    'streetaddress',
    'propertyaddress',
    'propertyaddressline1',
    'propertyaddress1',
    'propertystreetaddress',
    'propertystreet',
    'propaddress',
    'propertyaddr',
    'siteaddress',
    'siteaddr',
    'siteaddressline1',
    'sitestreetaddress',
    'situsaddress',
    'situsaddr',
    'situsstreetaddress',
    'situsstreet',
    'situsfulladdress',
    'situs',
    'physicaladdress',
    'locationaddress',
    'propertylocation',
    'address',
    'addressline1',
    'address1',
    'street',
    'addr',
    'inputpropertyaddress',
    'inputdatapropertyaddress',
  ],
  city: [
    'city',
    'propertycity',
    'propertyaddresscity',
    'propcity',
    'sitecity',
    'siteaddresscity',
    'situscity',
    'situsaddresscity',
    'town',
    'inputpropertycity',
    'inputdatapropertycity',
  ],
  state: [
    'state',
    'st',
    'propertystate',
    'propertyaddressstate',
    'propstate',
    'sitestate',
    'siteaddressstate',
    'situsstate',
    'situsaddressstate',
    'statecode',
    'province',
    'inputpropertystate',
    'inputdatapropertystate',
  ],
  zip_code: [
    'zipcode',
    'zip',
    'zip5',
    'zipcode5',
    'postalcode',
    'postcode',
    'propertyzip',
    'propertyzipcode',
    'propertyzip5',
    'propertyaddresszip',
    'propertyaddresszipcode',
    'propzip',
    'sitezip',
    'sitezipcode',
    'siteaddresszip',
    'situszip',
    'situszipcode',
    'situszip5',
    'situsaddresszip',
    'inputpropertyzip',
    'inputdatapropertyzip',
  ],
  first_name: [
    'firstname',
    'first',
    'fname',
    'givenname',
    'ownerfirstname',
    'owner1firstname',
    'ownerfirst',
    'owner1first',
    'ownerfname',
    'owner1fname',
    'primaryownerfirstname',
    'firstownerfirstname',
    'ownerfirstname1',
    'inputfirstname',
    'inputdatafirstname',
  ],
  last_name: [
    'lastname',
    'last',
    'lname',
    'surname',
    'familyname',
    'ownerlastname',
    'owner1lastname',
    'ownerlast',
    'owner1last',
    'ownerlname',
    'owner1lname',
    'primaryownerlastname',
    'firstownerlastname',
    'ownerlastname1',
    'inputlastname',
    'inputdatalastname',
  ],
  mailing_street_address: [
    'mailingstreetaddress',
    'mailingaddress',
    'mailingaddressline1',
    'mailingaddress1',
    'mailingstreet',
    'mailingaddr',
    'mailaddress',
    'mailaddress1',
    'mailaddr',
    'mailstreet',
    'ownermailingaddress',
    'ownermailingstreetaddress',
    'owneraddress',
    'owneraddressline1',
    'owner1address',
    'owner1mailingaddress',
    'taxbilladdress',
    'taxbillingaddress',
    'inputmailingaddress',
    'inputdatamailingaddress',
  ],
  mailing_city: [
    'mailingcity',
    'mailingaddresscity',
    'mailcity',
    'ownermailingcity',
    'owneraddresscity',
    'ownercity',
    'owner1city',
    'taxbillcity',
    'inputmailingcity',
    'inputdatamailingcity',
  ],
  mailing_state: [
    'mailingstate',
    'mailingaddressstate',
    'mailstate',
    'ownermailingstate',
    'owneraddressstate',
    'ownerstate',
    'owner1state',
    'taxbillstate',
    'inputmailingstate',
    'inputdatamailingstate',
  ],
  mailing_zip_code: [
    'mailingzipcode',
    'mailingzip',
    'mailingzip5',
    'mailingaddresszip',
    'mailingaddresszipcode',
    'mailingpostalcode',
    'mailzip',
    'mailzipcode',
    'mailzip5',
    'ownermailingzip',
    'ownermailingzipcode',
    'owneraddresszip',
    'owneraddresszipcode',
    'ownerzip',
    'ownerzipcode',
    'owner1zip',
    'owner1zipcode',
    'taxbillzip',
    'inputmailingzip',
    'inputdatamailingzip',
  ],
  apn: [
    'apn',
    'apnformatted',
    'apnunformatted',
    'apnnumber',
    'parcelnumber',
    'parcelid',
    'parcelno',
    'parcel',
    'parcelidentifier',
    'assessorparcelnumber',
    'assessorsparcelnumber',
    'taxparcelnumber',
    'taxid',
    'pin',
    'folio',
    'folionumber',
    'bbl',
  ],
  owner_name: [
    'ownername',
    'owner1name',
    'ownerfullname',
    'owner1fullname',
    'ownername1',
    'owner',
    'owner1',
    'owners',
    'primaryowner',
    'primaryownername',
    'primaryownerfullname',
    'fullname',
    'name',
    'ownnam',
    'ownername1line',
    'taxpayername',
    'taxpayer',
    'deedholder',
    'grantee',
  ],
};

/** Words that make a header something other than the field its other words name. */
const NOT_A_FIELD =
  /(?:line2|address2|unit|apt|suite|zip4|plus4|zipplus|county|fips|country|date|phone|email|type|status|vacant|value|equity|count|carrier|dpv|valid|owned|occupied|careof|attn|^lat|latitude|^lng|^lon|longitude)/;

/** Parts of a street address (a house number, a street's suffix), not the address. */
const ADDRESS_PART = /(?:number|num$|nbr|no$|suffix|prefix|dir$|predir|postdir|housenum)/;

/**
 * The field a header names when no alias matches, read from its words (folded): a second
 * owner's columns are nobody's; `mail`, `taxbill` or an owner's address/city/state/zip are
 * the mailing address; otherwise street, city, state and ZIP words are the property's
 * ("Prop Addr Street", "SiteAddr_Zip5", "Mail Zip 5 Digit"); first/last name words are the
 * (first) owner's, an owner or name word alone the whole owner name; parcel or APN words
 * the parcel number. Undefined when the words say nothing certain.
 */
export function inferField(header: string): Field | undefined {
  const h = foldName(header);
  if (h.length < 2 || NOT_A_FIELD.test(h)) return undefined;
  if (/(?:owner[2-9]|secondowner|coowner|owner2|spouse|other)/.test(h)) return undefined;
  if (/(?:parcel|apn)/.test(h)) return 'apn';
  if (ADDRESS_PART.test(h) && !/(?:zip|city|state)/.test(h)) return undefined;
  const first = /(?:first|fname|given|fn$)/.test(h);
  const last = /(?:last|lname|surname|family|ln$)/.test(h);
  const name = /name|nm$/.test(h);
  const street = /(?:address|addr|street|str$|adr)/.test(h);
  const city = /(?:city|town|cty)/.test(h);
  const state = /(?:state|^st$|stcode|prov)/.test(h);
  const zip = /(?:zip|postal|postcode)/.test(h);
  // ZIP, city or state decide over an address word ("Property Address City"); an address
  // word alone is the street, unless it is only the street's name.
  const component = zip ? 'zip_code' : city ? 'city' : state ? 'state' : street && !name ? 'street_address' : undefined;
  if ([zip, city, state].filter(Boolean).length > 1) return undefined;
  if (component) return /(?:mail|taxbill|billing|owner)/.test(h) ? (`mailing_${component}` as Field) : component;
  if (street) return undefined;
  if (first !== last && (name || /owner/.test(h))) return first ? 'first_name' : 'last_name';
  if (!first && !last && /owner/.test(h)) return 'owner_name';
  return undefined;
}

/** Explicit overrides: field → input column name. */
export type ColumnMap = Partial<Record<Field, string>>;

/** For each field, the index of the input column that feeds it (-1 when none does). */
export type Resolution = Record<Field, number>;

export function resolveColumns(columns: readonly string[], map: ColumnMap): Resolution {
  const exact = new Map<string, number>();
  const folded = new Map<string, number>();
  columns.forEach((name, i) => {
    if (!exact.has(name)) exact.set(name, i);
    const key = foldName(name);
    if (!folded.has(key)) folded.set(key, i);
  });
  const out = {} as Resolution;
  const taken = new Set<number>();
  for (const field of MAPPING_FIELDS) {
    const wanted = map[field];
    if (wanted === undefined) continue;
    out[field] = exact.get(wanted) ?? folded.get(foldName(wanted)) ?? -1;
    if (out[field] >= 0) taken.add(out[field]);
  }
  for (const field of MAPPING_FIELDS) {
    if (out[field] !== undefined) continue;
    out[field] = -1;
    for (const alias of ALIASES[field]) {
      const i = folded.get(alias);
      if (i !== undefined && !taken.has(i)) {
        out[field] = i;
        taken.add(i);
        break;
      }
    }
  }
  // Fields neither the map nor an alias found: the first free column whose words name them (inferField).
  columns.forEach((name, i) => {
    if (taken.has(i)) return;
    const field = inferField(name);
    if (field && out[field] === -1 && map[field] === undefined) {
      out[field] = i;
      taken.add(i);
    }
  });
  return out;
}

/** A column named like an owner's name (any owner: "Owner 2 Last Name", "OWNER_NAME", "First Name"). */
const NAME_LIKE =
  /^(?:(?:primary|first|second)?owner\d*(?:first|last|full|f|l)?name\d*|owner\d*(?:first|last)|owners?\d?|(?:first|last|full|given|family|sur)name)$/;

export interface MappingWarning {
  /** `owner_names_unmapped` (name columns present, none mapped) or `owner_name_half_mapped` (one of first/last). */
  code: 'owner_names_unmapped' | 'owner_name_half_mapped';
  message: string;
}

/**
 * What a mapping would do wrong without anyone noticing: the file names owners but no name is
 * mapped (the batch traces by address alone and returns everyone living there, not the owner),
 * or only one half of the first/last pair is mapped (the other half is never compared).
 */
export function mappingWarnings(columns: readonly string[], resolution: Resolution): MappingWarning[] {
  const mapped = (f: Field) => resolution[f] >= 0;
  const used = new Set(MAPPING_FIELDS.map((f) => resolution[f]).filter((i) => i >= 0));
  if (!mapped('first_name') && !mapped('last_name') && !mapped('owner_name')) {
    const named = columns.filter((c, i) => !used.has(i) && NAME_LIKE.test(foldName(c)));
    if (named.length > 0) {
      return [
        {
          code: 'owner_names_unmapped',
          message: `The file has owner-name columns (${named.slice(0, 4).join(', ')}) but no name is mapped: the batch would trace by address alone and return everyone at the address, not the owner. Map First name and Last name (or Owner full name).`,
        },
      ];
    }
    return [];
  }
  if (mapped('first_name') !== mapped('last_name') && !mapped('owner_name')) {
    const [have, lack] = mapped('first_name') ? ['First name', 'Last name'] : ['Last name', 'First name'];
    return [
      {
        code: 'owner_name_half_mapped',
        message: `Only ${have} is mapped (${columns[resolution[mapped('first_name') ? 'first_name' : 'last_name']]}); without ${lack} the owner's name is matched by half. Map ${lack} too.`,
      },
    ];
  }
  return [];
}
