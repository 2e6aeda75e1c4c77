/** History: the account's results, newest first, a page at a time, searchable by filters, each with erase. */
import { addressLine } from '@skiptrace/batches/owner-text';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import {
  erase,
  listBatches,
  listTraces,
  type BatchStatus,
  type HistoryFilters,
  type PropertyResponse,
} from '../api.ts';
import { RoleBadges, TraceResultView } from '../components/trace-result.tsx';
import { Card, ConfirmButton, DataTable, ErrorNotice, PageHeader, StatusBadge, useAction } from '../components/ui.tsx';
import { when } from '../format.ts';
import { Link } from '../router.tsx';

const PAGE_SIZE = 20;

const address = (r: PropertyResponse): string => (r.property ? addressLine(r.property) : `Property ${r.id}`);
/** The address in USPS form, as matching read it. */
const standardized = (r: PropertyResponse): string | undefined =>
  r.standardized_address && addressLine(r.standardized_address);

const STATUSES: [NonNullable<HistoryFilters['status']>, string][] = [
  ['completed', 'Matched'],
  ['no_match', 'No match'],
  ['failed', 'Failed'],
  ['pending', 'Pending'],
];

/** The search form: each field narrows the list, all given must hold. */
function SearchForm({ onSearch, busy }: { onSearch: (filters: HistoryFilters) => void; busy: boolean }) {
  const [form, setForm] = useState<Record<keyof HistoryFilters, string>>({
    address: '',
    name: '',
    phone: '',
    batch: '',
    status: '',
    from: '',
    to: '',
  });
  const [batches, setBatches] = useState<BatchStatus[]>([]);
  useEffect(() => {
    listBatches(100)
      .then((page) => setBatches(page.items))
      .catch(() => setBatches([]));
  }, []);
  const set = (field: keyof HistoryFilters) => (e: { target: { value: string } }) =>
    setForm({ ...form, [field]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const filters = Object.fromEntries(
      Object.entries(form)
        .map(([k, v]) => [k, v.trim()])
        .filter(([, v]) => v !== ''),
    ) as HistoryFilters;
    onSearch(filters);
  };
  const clear = () => {
    setForm({ address: '', name: '', phone: '', batch: '', status: '', from: '', to: '' });
    onSearch({});
  };
  return (
    <form className="form-grid history-search" role="search" aria-label="Search history" onSubmit={submit}>
      <label className="field">
        <span>Address</span>
        <input
          name="address"
          value={form.address}
          maxLength={200}
          onChange={set('address')}
          placeholder="12 N Main St, Austin"
        />
      </label>
      <label className="field">
        <span>Name</span>
        <input
          name="name"
          value={form.name}
          maxLength={100}
          onChange={set('name')}
          placeholder="Owner or person found"
        />
      </label>
      <label className="field">
        <span>Phone</span>
        <input
          name="phone"
          value={form.phone}
          maxLength={40}
          inputMode="tel"
          onChange={set('phone')}
          placeholder="(512) 555-0147"
        />
      </label>
      <label className="field">
        <span>Batch</span>
        <select name="batch" value={form.batch} onChange={set('batch')}>
          <option value="">Any</option>
          {batches.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name} (#{b.id})
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Status</span>
        <select name="status" value={form.status} onChange={set('status')}>
          <option value="">Any</option>
          {STATUSES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>From</span>
        <input type="date" name="from" value={form.from} onChange={set('from')} />
      </label>
      <label className="field">
        <span>To</span>
        <input type="date" name="to" value={form.to} onChange={set('to')} />
      </label>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          Search
        </button>
        <button type="button" className="button secondary" disabled={busy} onClick={clear}>
          Clear
        </button>
      </div>
    </form>
  );
}

export function HistoryPage() {
  const [rows, setRows] = useState<PropertyResponse[]>([]);
  /** Cursors of the pages before this one (undefined: the newest page). */
  const [trail, setTrail] = useState<(string | undefined)[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [next, setNext] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [filters, setFilters] = useState<HistoryFilters>({});

  const load = useAction(async (at?: string, search: HistoryFilters = filters) => {
    const page = await listTraces(PAGE_SIZE, at, search);
    setRows(page.items);
    setNext(page.next);
    setCursor(at);
  });
  useEffect(() => void load.run(undefined), []);
  const searching = Object.keys(filters).length > 0;
  const search = (chosen: HistoryFilters) => {
    setFilters(chosen);
    setTrail([]);
    void load.run(undefined, chosen);
  };

  const remove = useAction(async (id: number) => {
    await erase(id);
    setRows((r) => r.filter((x) => x.id !== id));
  });
  const older = () => {
    setTrail([...trail, cursor]);
    void load.run(next ?? undefined);
  };
  const newer = () => {
    const back = trail.slice(0, -1);
    const target = trail[trail.length - 1];
    setTrail(back);
    void load.run(target);
  };

  return (
    <>
      <PageHeader
        title="History"
        lead="Every property your account traced — one at a time or in batches — newest first. Search by address, name, phone, batch, status or date. Erasing removes the property and its results."
      />
      <Card title="Search">
        <SearchForm onSearch={search} busy={load.busy} />
      </Card>
      <Card
        title={`Results${trail.length ? ` · page ${trail.length + 1}` : ''}`}
        actions={
          <div className="pager">
            <button
              type="button"
              className="button secondary small"
              disabled={!trail.length || load.busy}
              onClick={newer}
            >
              Newer
            </button>
            <button type="button" className="button secondary small" disabled={!next || load.busy} onClick={older}>
              Older
            </button>
          </div>
        }
      >
        <ErrorNotice error={load.error ?? remove.error} />
        <DataTable
          columns={[
            'Traced',
            'Property',
            'Batch',
            'Status',
            'Best match',
            { label: 'Phones', num: true },
            { label: 'Actions', hidden: true },
          ]}
          rows={rows.length}
          busy={load.busy}
          empty={
            searching
              ? next
                ? 'Nothing found among the rows searched so far: search older rows with "Older".'
                : 'Nothing matches this search.'
              : 'Nothing traced yet.'
          }
        >
          {rows.map((r) => {
            const best = r.results[0];
            return (
              <HistoryRow
                key={r.id}
                result={r}
                address={address(r)}
                best={
                  best ? (
                    <>
                      {best.first_name} {best.last_name} ({Math.round(best.confidence * 100)} %){' '}
                      <RoleBadges person={best} />
                    </>
                  ) : (
                    '—'
                  )
                }
                phones={r.results.reduce((n, p) => n + p.phones.length, 0)}
                open={open === r.id}
                onToggle={() => setOpen(open === r.id ? null : r.id)}
                onErase={() => void remove.run(r.id)}
              />
            );
          })}
        </DataTable>
      </Card>
    </>
  );
}

function HistoryRow(props: {
  result: PropertyResponse;
  address: string;
  best: ReactNode;
  phones: number;
  open: boolean;
  onToggle: () => void;
  onErase: () => void;
}) {
  const { result } = props;
  return (
    <>
      <tr>
        <td className="nowrap">{when(result.created_at)}</td>
        <td>
          {props.address}
          {standardized(result) && standardized(result)!.toUpperCase() !== props.address.toUpperCase() && (
            <>
              <br />
              <small className="muted" title="Standardised (USPS)">
                {standardized(result)}
              </small>
            </>
          )}
        </td>
        <td>{result.batch_id ? <Link to={`/batches/${result.batch_id}`}>#{result.batch_id}</Link> : '—'}</td>
        <td>
          <StatusBadge status={result.status} />
        </td>
        <td>{props.best}</td>
        <td className="num">{props.phones}</td>
        <td className="actions-cell">
          <div className="row-actions">
            <button
              type="button"
              className="button ghost small"
              aria-expanded={props.open}
              aria-label={`Details of property ${result.id}`}
              onClick={props.onToggle}
            >
              Details
            </button>
            <ConfirmButton
              label={`Erase property ${result.id}`}
              text="Erase"
              confirmLabel="Erase for good"
              small
              onConfirm={props.onErase}
            />
          </div>
        </td>
      </tr>
      {props.open && (
        <tr className="detail-row">
          <td colSpan={7}>
            <TraceResultView result={result} />
          </td>
        </tr>
      )}
    </>
  );
}
