/** A traced person's relation to the property, as the console's badges name it (ADR 0010). */
import type { PropertyResponse } from './api.ts';
import type { Tone } from './components/ui.tsx';

export type Person = PropertyResponse['results'][number];
export interface Role {
  label: 'Owner' | 'Resident' | 'Lives elsewhere' | 'Former resident';
  tone: Tone;
  /** What the badge means, for its title. */
  title: string;
}

/**
 * Owner: an owner of record (a name agreement plus an address tie). Resident: lives there now.
 * An owner who does not live there "lives elsewhere"; somebody neither owner nor resident
 * once lived there. A result from before the owner model says neither: no badge.
 */
export function rolesOf(person: Person): Role[] {
  const roles: Role[] = [];
  if (person.owner === true) roles.push({ label: 'Owner', tone: 'good', title: 'An owner of record of this property' });
  if (person.resident === true) roles.push({ label: 'Resident', tone: 'neutral', title: 'Lives at this property now' });
  else if (person.resident === false)
    roles.push(
      person.owner === true
        ? { label: 'Lives elsewhere', tone: 'info', title: 'Owns this property and lives at another address' }
        : { label: 'Former resident', tone: 'warn', title: 'Lived at this property; neither owner nor resident now' },
    );
  return roles;
}

/** Records name owners but nobody found is one of them: the people shown are not the owners. */
export const noOwnerAmong = (result: PropertyResponse): boolean =>
  (result.owners_of_record?.length ?? 0) > 0 && result.results.length > 0 && !result.results.some((p) => p.owner);
