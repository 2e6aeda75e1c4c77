/** One PropertyResponse: each person with confidence and reasons, each phone with its flags. */
import type { PropertyResponse } from '../api.ts';
import { phone, when } from '../format.ts';
import { Badge, Empty, StatusBadge } from './ui.tsx';

export function TraceResultView({ result }: { result: PropertyResponse }) {
  const p = result.property;
  return (
    <div className="trace-result">
      <div className="result-head">
        <div>
          <h3>{p ? `${p.street_address}, ${p.city}, ${p.state} ${p.zip_code}` : `Property ${result.id}`}</h3>
          <p className="muted">
            Property {result.id} · traced {when(result.completed_at ?? result.created_at)}
          </p>
        </div>
        <StatusBadge status={result.status} />
      </div>
      {result.error && <p className="notice warn">{result.error}</p>}
      {result.status === 'pending' && (
        <p className="muted">Still running — the result appears here when it is ready.</p>
      )}
      {result.status === 'no_match' && <Empty>No owner found at this address.</Empty>}
      {result.truncated && (
        <p className="notice warn" role="note" aria-label="Not everyone shown">
          {result.results.length > 0
            ? `${result.people_total ?? 'More'} people match at this address; the best ${result.results.length} are shown. `
            : 'This address holds more contacts than one trace compares, so not everyone there was compared. '}
          Group quarters and large buildings without unit numbers reach the cap; add a name or a unit to narrow it.
        </p>
      )}
      {result.results.map((person, i) => (
        <article className="person" key={i} aria-label={`${person.first_name} ${person.last_name}`}>
          <header>
            <h4>
              {person.first_name} {person.last_name}
              {i === 0 && <Badge tone="info">best match</Badge>}
            </h4>
            <div className="confidence" title="Match confidence">
              <meter
                min={0}
                max={1}
                low={0.5}
                high={0.8}
                optimum={1}
                value={person.confidence}
                aria-label="Confidence"
              />
              <span>{Math.round(person.confidence * 100)} %</span>
            </div>
          </header>
          {person.reasons.length > 0 && (
            <ul className="reasons" aria-label="Reasons">
              {person.reasons.map((r) => (
                <li key={r}>{r.replace(/_/g, ' ')}</li>
              ))}
            </ul>
          )}
          {person.phones.length > 0 ? (
            <table className="table compact">
              <caption className="sr-only">
                Phones of {person.first_name} {person.last_name}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Phone</th>
                  <th scope="col">Type</th>
                  <th scope="col">DNC</th>
                  <th scope="col">Litigator</th>
                </tr>
              </thead>
              <tbody>
                {person.phones.map((ph) => (
                  <tr key={ph.number}>
                    <td className="mono">{phone(ph.number)}</td>
                    <td>{ph.type}</td>
                    <td>{ph.dnc ? <Badge tone="bad">DNC</Badge> : <span className="muted">no</span>}</td>
                    <td>{ph.litigator ? <Badge tone="bad">litigator</Badge> : <span className="muted">no</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">No phone numbers.</p>
          )}
          {person.emails.length > 0 && (
            <p className="emails">
              <span className="muted">Email:</span> {person.emails.join(', ')}
            </p>
          )}
        </article>
      ))}
    </div>
  );
}
