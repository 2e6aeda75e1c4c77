/** One batch: live progress while it runs, a chart of rows/s, downloads, cancel and purge. */
import { useEffect, useMemo, useRef, useState } from 'react';
import { isOpenBatch } from '@skiptrace/contracts/batch-states';
import type { AlignedData } from 'uplot';
import {
  batchResults,
  cancelBatch,
  getBatch,
  listRejects,
  purgeBatch,
  rejectsCsv,
  rerunBatch,
  updateBatch,
  type BatchReject,
  type BatchStatus,
} from '../api.ts';
import { Chart } from '../components/chart.tsx';
import {
  Card,
  ConfirmButton,
  DataTable,
  ErrorNotice,
  PageHeader,
  Stat,
  StatusBadge,
  useAction,
} from '../components/ui.tsx';
import { splitTags } from '@skiptrace/contracts/batch-tags';
import { count, duration, percent, share, when } from '../format.ts';
import { Link, useRoute } from '../router.tsx';
import { Tags } from './batches.tsx';

/** Poll every 250 ms for the first 10 s (a demo batch is done in about a second), then every second. */
const pollDelay = (startedAt: number) => (Date.now() - startedAt < 10_000 ? 250 : 1000);
const active = (b: BatchStatus | null) => isOpenBatch(b?.status);

/**
 * Progress points on the server's clock: (started_at, 0), then (updated_at, processed) of
 * each poll that saw a change. Rows/s between consecutive points is the chart; the server's
 * own `rate` is the average since the start.
 */
interface Sample {
  t: number;
  processed: number;
}
function addSample(samples: Sample[], b: BatchStatus): Sample[] {
  const out = samples.length === 0 && b.started_at ? [{ t: Date.parse(b.started_at), processed: 0 }] : samples;
  const t = Date.parse(b.updated_at);
  const last = out[out.length - 1];
  if (last && (t <= last.t || b.processed === last.processed)) return out;
  return [...out.slice(-600), { t, processed: b.processed }];
}
function ratesOf(samples: Sample[]): AlignedData {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    const dt = (b.t - a.t) / 1000;
    if (dt <= 0) continue;
    xs.push(b.t / 1000);
    ys.push(Math.max(0, (b.processed - a.processed) / dt));
  }
  return [xs, ys];
}

/** Hands a fetched file to the browser as a download (the API needs the bearer token, so no plain link). */
function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function DownloadLink({ label, name, fetch }: { label: string; name: string; fetch: () => Promise<Blob> }) {
  const download = useAction(async () => saveBlob(await fetch(), name));
  return (
    <>
      <a
        className="button secondary"
        href={`#download-${name}`}
        aria-busy={download.busy}
        onClick={(e) => {
          e.preventDefault();
          if (!download.busy) void download.run();
        }}
      >
        {download.busy ? 'Preparing…' : label}
      </a>
      <ErrorNotice error={download.error} />
    </>
  );
}

/** Rejects shown before the download. */
const REJECTS_SHOWN = 20;

/** The rows refused at upload: the first REJECTS_SHOWN with their row numbers and reasons, then every one as CSV. */
function Rejects({ batch }: { batch: BatchStatus }) {
  const [rejects, setRejects] = useState<BatchReject[] | null>(null);
  const load = useAction(async () => setRejects((await listRejects(batch.id, 0, REJECTS_SHOWN)) as BatchReject[]));
  useEffect(() => void load.run(), [batch.id]);
  return (
    <Card title="Rejected rows">
      <p className="muted">
        {count(batch.rejected)} {batch.rejected === 1 ? 'row was' : 'rows were'} not traced: each with its row number (1
        is the first row after the header) and the reason. They are in the results download too, with status "rejected".
      </p>
      <ErrorNotice error={load.error} />
      {rejects && (
        <DataTable
          columns={[{ label: 'Row', num: true }, 'Reason']}
          rows={rejects.length}
          empty="No rejected rows."
          caption="Rejected rows"
          compact
        >
          {rejects.map((r) => (
            <tr key={r.row}>
              <td className="num">{r.row}</td>
              <td>{r.reason}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {batch.rejected > REJECTS_SHOWN && (
        <p className="muted">
          The first {REJECTS_SHOWN} of {count(batch.rejected)}; download them all:
        </p>
      )}
      <div className="button-row">
        <DownloadLink
          label="Download rejected rows (CSV)"
          name={`batch-${batch.id}-rejects.csv`}
          fetch={() => rejectsCsv(batch.id)}
        />
      </div>
    </Card>
  );
}

/** The list's name and tags, editable. */
function ListIdentity({ batch, onSaved }: { batch: BatchStatus; onSaved: (b: BatchStatus) => void }) {
  const [name, setName] = useState(batch.name);
  const [tags, setTags] = useState(batch.tags.join(', '));
  useEffect(() => {
    setName(batch.name);
    setTags(batch.tags.join(', '));
  }, [batch.id]);
  const save = useAction(async () =>
    onSaved(await updateBatch(batch.id, { name: name.trim(), tags: splitTags(tags) })),
  );
  const changed = name.trim() !== batch.name || splitTags(tags).join(',') !== batch.tags.join(',');
  return (
    <Card title="List">
      <form
        className="form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          if (changed && name.trim()) void save.run();
        }}
      >
        <label className="field">
          <span>Name</span>
          <input value={name} maxLength={200} required onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>
            Tags <small>(comma-separated)</small>
          </span>
          <input value={tags} maxLength={400} onChange={(e) => setTags(e.target.value)} />
        </label>
        <div className="form-actions">
          <button type="submit" className="button secondary" disabled={!changed || !name.trim() || save.busy}>
            {save.busy ? 'Saving…' : 'Save name and tags'}
          </button>
        </div>
      </form>
      <ErrorNotice error={save.error} />
    </Card>
  );
}

/** Re-run the misses (optionally the failed rows too), or the whole list, as a new batch traced afresh. */
function Rerun({ batch }: { batch: BatchStatus }) {
  const { navigate } = useRoute();
  const [withFailed, setWithFailed] = useState(false);
  const rerun = useAction(async (rows: 'misses' | 'all') => {
    const started = await rerunBatch(batch.id, { rows, include_failed: withFailed });
    navigate(`/batches/${started.id}`);
  });
  const misses = batch.no_match + (withFailed ? batch.failed : 0);
  return (
    <Card title="Re-run">
      <p className="muted">
        A re-run is a new batch traced afresh: no row is answered from results of the last 24 hours.
      </p>
      {batch.failed > 0 && (
        <label className="checkbox">
          <input type="checkbox" checked={withFailed} onChange={(e) => setWithFailed(e.target.checked)} /> Include the{' '}
          {count(batch.failed)} failed {batch.failed === 1 ? 'row' : 'rows'}
        </label>
      )}
      <div className="button-row">
        <button
          type="button"
          className="button primary"
          disabled={rerun.busy || misses === 0}
          onClick={() => void rerun.run('misses')}
        >
          Re-run misses ({count(misses)})
        </button>
        <button type="button" className="button secondary" disabled={rerun.busy} onClick={() => void rerun.run('all')}>
          Re-run all fresh
        </button>
      </div>
      <ErrorNotice error={rerun.error} />
    </Card>
  );
}

export function BatchPage({ id }: { id: string }) {
  const { navigate } = useRoute();
  const [batch, setBatch] = useState<BatchStatus | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [samples, setSamples] = useState<Sample[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    let stopped = false;
    const openedAt = Date.now();
    const poll = async () => {
      try {
        const b = await getBatch(id);
        if (stopped) return;
        setBatch(b);
        setError(null);
        setSamples((s) => addSample(s, b));
        if (active(b)) timer.current = setTimeout(() => void poll(), pollDelay(openedAt));
      } catch (err) {
        if (!stopped) setError(err);
      }
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer.current);
    };
  }, [id]);

  const rates = useMemo(() => ratesOf(samples), [samples]);
  const cancel = useAction(async () => setBatch(await cancelBatch(id)));
  const purge = useAction(async () => {
    await purgeBatch(id);
    navigate('/batches');
  });

  if (!batch) {
    return (
      <>
        <PageHeader title={`Batch ${id}`} />
        <ErrorNotice error={error} />
        {!error && <p className="muted">Loading…</p>}
      </>
    );
  }
  const done = batch.processed + batch.rejected;
  const pct = batch.total > 0 ? Math.floor((done / batch.total) * 100) : 100;
  return (
    <>
      <PageHeader
        title={batch.name}
        lead={
          <>
            <Link to="/batches">All batches</Link> · batch {batch.id} · created {when(batch.created_at)}
            {batch.rerun_of && (
              <>
                {' '}
                · {batch.fresh ? 're-run of ' : ''}
                <Link to={`/batches/${batch.rerun_of}`}>batch {batch.rerun_of}</Link>
              </>
            )}
            {batch.fresh && !batch.rerun_of && ' · traced fresh'}
            {batch.tags.length > 0 && (
              <>
                {' '}
                · <Tags tags={batch.tags} />
              </>
            )}
          </>
        }
        actions={<StatusBadge status={batch.status} />}
      />
      <Card title="Progress">
        <div className="progress-row">
          <div
            className={`progress ${batch.status}`}
            role="progressbar"
            aria-label="Batch progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct}
            aria-valuetext={`${pct} % (${count(done)} of ${count(batch.total)} rows)`}
          >
            <div className="progress-fill" style={{ width: `${pct}%` }} />
          </div>
          <span className="progress-label">{pct} %</span>
        </div>
        <dl className="stats">
          <Stat label="Rows" value={`${count(done)} / ${count(batch.total)}`} />
          <Stat label="Matched" value={count(batch.matched)} tone="good" />
          <Stat label="No match" value={count(batch.no_match)} />
          <Stat label="Rejected" value={count(batch.rejected)} tone={batch.rejected ? 'bad' : undefined} />
          <Stat label="Failed" value={count(batch.failed)} tone={batch.failed ? 'bad' : undefined} />
          {batch.erased > 0 && <Stat label="Erased before trace" value={count(batch.erased)} />}
          <Stat label="Match rate" value={percent(batch.matched, batch.processed - batch.erased)} />
          <Stat label="Phones found" value={count(batch.phones)} />
          <Stat label="Mobile share" value={share(batch.mobile_share)} />
          <Stat label="Reused" value={count(batch.reused)} />
          <Stat label="Duration" value={duration(batch.duration_seconds)} />
          <Stat label="Rate" value={`${count(Math.round(batch.rate))} rows/s`} />
          <Stat label="Time left" value={active(batch) ? duration(batch.eta_seconds) : '—'} />
        </dl>
        <ErrorNotice error={error} />
      </Card>
      <Card title="Throughput">
        {rates[0].length >= 2 ? (
          <Chart
            data={rates}
            series={[{ label: 'Rows per second', color: '#4f46e5', unit: 'rows/s' }]}
            description={`Rows traced per second over time; average ${Math.round(batch.rate)} rows per second.`}
            points={rates[0].length < 30}
          />
        ) : (
          <p className="muted">
            {active(batch)
              ? 'Measuring…'
              : `Finished before this page could follow it: on average ${count(Math.round(batch.rate))} rows/s.`}
          </p>
        )}
      </Card>
      <Card title="Results">
        <p className="muted">
          Your columns as uploaded, then each owner's phones with type, DNC and litigator flags, the confidence and a
          status per row.
          {active(batch) && ' Rows still running say "pending".'}
        </p>
        <div className="button-row">
          {(['csv', 'xlsx', 'ndjson'] as const).map((format) => (
            <DownloadLink
              key={format}
              label={`Download results (${format.toUpperCase()})`}
              name={`batch-${batch.id}.${format}`}
              fetch={() => batchResults(batch.id, format)}
            />
          ))}
        </div>
      </Card>
      {batch.rejected > 0 && <Rejects batch={batch} />}
      <ListIdentity batch={batch} onSaved={setBatch} />
      {!active(batch) && <Rerun batch={batch} />}
      <Card title="Manage">
        <div className="button-row">
          {active(batch) && (
            <ConfirmButton
              label="Cancel batch"
              confirmLabel="Yes, cancel it"
              disabled={cancel.busy}
              onConfirm={() => void cancel.run()}
            />
          )}
          <ConfirmButton
            label="Purge batch"
            confirmLabel="Yes, delete its rows and results"
            disabled={purge.busy}
            onConfirm={() => void purge.run()}
          />
        </div>
        <p className="muted">Purging deletes the batch, its rows and their results for good.</p>
        <ErrorNotice error={cancel.error ?? purge.error} />
      </Card>
    </>
  );
}
