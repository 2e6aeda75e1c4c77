/**
 * One PropertyResponse: the owners of record and the mailing address used, then each person
 * with their relation to the property (owner, resident), confidence and reasons, current
 * address and address history, each phone with its dates and flags. Every value is text
 * React escapes; nothing is rendered as HTML.
 */
import { addressLine } from '@skiptrace/batches/owner-text';
import type { PropertyResponse } from '../api.ts';
import { seenSpan, when } from '../format.ts';
import { noOwnerAmong, rolesOf, type Person } from '../owners.ts';
import { Badge, DataTable, Empty, PhoneLink, StatusBadge } from './ui.tsx';

const fullName = (p: Person) => [p.first_name, p.middle_name, p.last_name].filter(Boolean).join(' ');

export function TraceResultView({ result }: { result: PropertyResponse }) {
  const p = result.property;
  return (
    <div className="trace-result">
      <div className="result-head">
        <div>
          <h3>{p ? addressLine(p) : `Property ${result.id}`}</h3>
          <p className="muted">
            Property {result.id}
            {p?.apn && ` · APN ${p.apn}`} · traced {when(result.completed_at ?? result.created_at)}
          </p>
        </div>
        <StatusBadge status={result.status} />
      </div>
      {result.error && <p className="notice warn">{result.error}</p>}
      {result.status === 'pending' && (
        <p className="muted">Still running — the result appears here when it is ready.</p>
      )}
      <OwnerFacts result={result} />
      {result.status === 'no_match' && <Empty>No owner found at this address.</Empty>}
      {noOwnerAmong(result) && (
        <p className="notice warn" role="note" aria-label="No owner found">
          None of the people found is an owner of record: they live at the property, and their phones are not the
          owner&apos;s.
        </p>
      )}
      {result.truncated && (
        <p className="notice warn" role="note" aria-label="Not everyone shown">
          {result.results.length > 0
            ? `${result.people_total ?? 'More'} people match at this address; the best ${result.results.length} are shown. `
            : 'This address holds more contacts than one trace compares, so not everyone there was compared. '}
          Group quarters and large buildings without unit numbers reach the cap; add a name or a unit to narrow it.
        </p>
      )}
      {result.results.map((person, i) => (
        <PersonView key={i} person={person} best={i === 0} />
      ))}
    </div>
  );
}

/** The property's owners of record (with their kind) and the owner's mailing address the trace used. */
function OwnerFacts({ result }: { result: PropertyResponse }) {
  const owners = result.owners_of_record ?? [];
  if (owners.length === 0 && !result.mailing_address) return null;
  return (
    <section className="owner-facts" aria-label="Ownership">
      {owners.length > 0 && (
        <>
          <h4>Owners of record</h4>
          <ul className="owners">
            {owners.map((o, i) => (
              <li key={i}>
                <Badge className="kind">{o.kind}</Badge> {o.name}
                {o.as_recorded.toLowerCase() !== o.name.toLowerCase() && (
                  <span className="muted"> · recorded as “{o.as_recorded}”</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {result.mailing_address && (
        <p className="mailing">
          <span className="muted">Mailing address used:</span> {addressLine(result.mailing_address)}
        </p>
      )}
    </section>
  );
}

/** A person's relation to the property as badges (Owner, Resident, …); none for a result that does not say. */
export const RoleBadges = ({ person }: { person: Person }) =>
  rolesOf(person).map((role) => (
    <Badge key={role.label} tone={role.tone} className="role">
      <span title={role.title}>{role.label}</span>
    </Badge>
  ));

const PHONE_COLUMNS = ['Phone', 'Type', 'Seen', 'DNC', 'Litigator'];

function PersonView({ person, best }: { person: Person; best: boolean }) {
  const name = fullName(person);
  return (
    <article className="person" aria-label={name}>
      <header>
        <h4>
          {name}
          <RoleBadges person={person} />
          {best && <Badge tone="info">best match</Badge>}
        </h4>
        <div className="confidence" title="Match confidence">
          <meter min={0} max={1} low={0.5} high={0.8} optimum={1} value={person.confidence} aria-label="Confidence" />
          <span>{Math.round(person.confidence * 100)} %</span>
        </div>
      </header>
      {person.current_address && (
        <p className="current-address">
          <span className="muted">Current address:</span> {addressLine(person.current_address)}
        </p>
      )}
      {person.reasons.length > 0 && (
        <ul className="reasons" aria-label="Reasons">
          {person.reasons.map((r) => (
            <li key={r}>{r.replace(/_/g, ' ')}</li>
          ))}
        </ul>
      )}
      <DataTable
        columns={PHONE_COLUMNS}
        rows={person.phones.length}
        empty="No phone numbers."
        caption={`Phones of ${name}`}
        compact
        scroll={false}
      >
        {person.phones.map((ph) => (
          <tr key={ph.number}>
            <td>
              <PhoneLink number={ph.number} />
            </td>
            <td>{ph.type}</td>
            <td className="nowrap">{seenSpan(ph.first_seen, ph.last_seen)}</td>
            <td>{ph.dnc ? <Badge tone="bad">DNC</Badge> : <span className="muted">no</span>}</td>
            <td>{ph.litigator ? <Badge tone="bad">litigator</Badge> : <span className="muted">no</span>}</td>
          </tr>
        ))}
      </DataTable>
      {person.emails.length > 0 && (
        <p className="emails">
          <span className="muted">Email:</span> {person.emails.join(', ')}
        </p>
      )}
      {(person.addresses?.length ?? 0) > 0 && (
        <div className="addresses">
          <h5>Address history</h5>
          {/* Newest first, as the API orders them. */}
          <ol aria-label={`Address history of ${name}`}>
            {person.addresses!.map((a, i) => (
              <li key={i}>
                {addressLine(a)} <span className="muted nowrap">{seenSpan(a.first_seen, a.last_seen)}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </article>
  );
}
