/**
 * The owner model's facts as one line of text each — an address, the owners of record —
 * written the same way by the CSV export and the web console. Pure (no imports): the
 * console bundles this file, as it does column-rules.ts.
 */

/** A postal address as the API writes it (Address of @skiptrace/contracts). */
export interface PostalAddress {
  street_address: string;
  city: string;
  state: string;
  zip_code: string;
}

/** "1 Main St, Austin, TX 78701". */
export const addressLine = (a: PostalAddress): string => `${a.street_address}, ${a.city}, ${a.state} ${a.zip_code}`;

/** The owners of record by their readable names, joined with "; ": "John A Smith; Mary B Smith". */
export const ownerNames = (owners: readonly { name: string }[]): string => owners.map((o) => o.name).join('; ');
