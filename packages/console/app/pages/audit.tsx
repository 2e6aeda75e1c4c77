/**
 * The account's audit log: who did what, when, from where, newest first, filtered by
 * actor, action and time; "Show more" follows the cursor. Owners and admins only.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { listAudit, type AuditAction, type AuditEntry, type AuditFilters } from '../api.ts';
import { Badge, Card, DataTable, ErrorNotice, PageHeader, useAction } from '../components/ui.tsx';
import { when } from '../format.ts';

const PAGE = 50;
const ACTIONS: AuditAction[] = [
  'user.signed_in',
  'client.created',
  'client.secret_rotated',
  'client.revoked',
  'member.invited',
  'member.invitation_accepted',
  'member.role_changed',
  'member.removed',
  'member.password_reset_issued',
  'member.password_reset',
  'result.erased',
  'batch.erased',
  'export.downloaded',
  'quota.changed',
  'access.denied',
];

/** A date input's day as the start of that day in the browser's time zone (ISO 8601). */
const dayStart = (day: string, plusDays = 0) => {
  const d = new Date(`${day}T00:00:00`);
  d.setDate(d.getDate() + plusDays);
  return d.toISOString();
};

const details = (entry: AuditEntry) =>
  Object.entries(entry.details)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : String(v)}`)
    .join(', ');

export function AuditPage() {
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [actor, setActor] = useState('');
  const [action, setAction] = useState<AuditAction | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const filters = (): AuditFilters => ({
    ...(actor.trim() ? { actor: actor.trim() } : {}),
    ...(action ? { action } : {}),
    ...(from ? { from: dayStart(from) } : {}),
    ...(to ? { to: dayStart(to, 1) } : {}),
  });
  const load = useAction(async (cursor?: string) => {
    const page = await listAudit(filters(), PAGE, cursor);
    setEntries((list) => (cursor ? [...list, ...page.items] : page.items));
    setNext(page.next);
  });
  useEffect(() => void load.run(), []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void load.run();
  };

  return (
    <>
      <PageHeader
        title="Audit log"
        lead="Sign-ins, members, API clients, erasures and export downloads of this account: who, when, from where. Never the data itself."
      />
      <Card title="Filter">
        <form className="form-grid" onSubmit={submit} aria-label="Filter the audit log">
          <label className="field">
            <span>Actor</span>
            <input
              value={actor}
              maxLength={320}
              placeholder="email, user or client id"
              onChange={(e) => setActor(e.target.value)}
            />
          </label>
          <label className="field">
            <span>Action</span>
            <select value={action} onChange={(e) => setAction(e.target.value as AuditAction | '')}>
              <option value="">any</option>
              {ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>From</span>
            <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          </label>
          <label className="field">
            <span>To</span>
            <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
          </label>
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={load.busy}>
              Apply
            </button>
          </div>
        </form>
      </Card>
      <Card title="Entries">
        <ErrorNotice error={load.error} />
        <DataTable
          columns={['When', 'Action', 'Actor', 'Client', 'Source', 'Target', 'Details']}
          rows={entries.length}
          busy={load.busy && entries.length === 0}
          empty="No entries."
        >
          {entries.map((e) => (
            <tr key={e.id}>
              <td className="nowrap">{when(e.at)}</td>
              <td>
                <Badge tone="info">{e.action}</Badge>
              </td>
              <td>{e.actor.email ?? <span className="mono">{e.actor.id ?? e.actor.type}</span>}</td>
              <td className="mono">{e.client_id ?? '—'}</td>
              <td className="mono">{e.source_address ?? '—'}</td>
              <td className="mono">{e.target ? `${e.target.type} ${e.target.id ?? ''}` : '—'}</td>
              <td className="muted">{details(e)}</td>
            </tr>
          ))}
        </DataTable>
        {next && (
          <div className="form-actions">
            <button type="button" className="button secondary" disabled={load.busy} onClick={() => void load.run(next)}>
              Show more
            </button>
          </div>
        )}
      </Card>
    </>
  );
}
