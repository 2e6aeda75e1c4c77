/** Batches: upload a file and map its columns, then the account's batches with their match rate. */
import { useEffect, useState } from 'react';
import { resolveColumns } from '@skiptrace/batches/column-rules';
import { listBatches, submitBatch, type BatchStatus } from '../api.ts';
import { getConfig } from '../auth.ts';
import { Card, DataTable, ErrorNotice, PageHeader, StatusBadge, useAction } from '../components/ui.tsx';
import { count, percent, when } from '../format.ts';
import { FIELD_LABELS, FIELDS, REQUIRED_FIELDS, type Field } from '../fields.ts';
import { previewFile, type FilePreview } from '../preview.ts';
import { Link, useRoute } from '../router.tsx';

type Mapping = Record<Field, string>;

function prefill(columns: string[]): Mapping {
  const found = resolveColumns(columns, {});
  return Object.fromEntries(FIELDS.map((f) => [f, found[f] >= 0 ? columns[found[f]]! : ''])) as Mapping;
}

function Upload() {
  const { navigate } = useRoute();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<FilePreview | null>(null);
  const [mapping, setMapping] = useState<Mapping | null>(null);
  const [previewError, setPreviewError] = useState<unknown>(null);
  const sample = getConfig().sampleCsv;

  const choose = async (chosen: File | undefined) => {
    setFile(chosen ?? null);
    setPreview(null);
    setMapping(null);
    setPreviewError(null);
    if (!chosen) return;
    try {
      const p = await previewFile(chosen);
      setPreview(p);
      setMapping(prefill(p.columns));
    } catch (err) {
      setPreviewError(err);
    }
  };
  const missing = mapping ? REQUIRED_FIELDS.filter((f) => !mapping[f]) : [];
  const start = useAction(async () => {
    if (!file || !preview || !mapping) return;
    const map = Object.fromEntries(Object.entries(mapping).filter(([, column]) => column !== ''));
    const accepted = await submitBatch(file, preview.format, map);
    navigate(`/batches/${accepted.id}`);
  });

  return (
    <Card title="New batch">
      <div className="upload">
        <label className="field file">
          <span>CSV file</span>
          <input
            type="file"
            accept=".csv,.ndjson,.jsonl,.json,text/csv,application/json"
            onChange={(e) => void choose(e.target.files?.[0])}
            aria-describedby="file-help"
          />
        </label>
        <p id="file-help" className="muted">
          CSV with a header row, NDJSON (one object per line) or a JSON array — up to a million rows.
          {sample && (
            <>
              {' '}
              No file at hand? <a href={sample}>Download a sample CSV</a> of demo properties.
            </>
          )}
        </p>
      </div>
      <ErrorNotice error={previewError} />
      {preview && mapping && (
        <>
          <h3 className="section-title">Preview</h3>
          <p className="muted">
            {file?.name} · {preview.format.toUpperCase()} · {preview.columns.length} columns · first{' '}
            {preview.rows.length} rows
          </p>
          <div className="table-scroll">
            <table className="table compact preview">
              <thead>
                <tr>
                  {preview.columns.map((c, i) => (
                    <th key={i} scope="col">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row, r) => (
                  <tr key={r}>
                    {preview.columns.map((_, i) => (
                      <td key={i}>{row[i] ?? ''}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3 className="section-title">Columns</h3>
          <p className="muted">Pre-filled from the column names the server recognises. Change any that are wrong.</p>
          <div className="form-grid mapping">
            {FIELDS.map((field) => (
              <label key={field} className="field">
                <span>
                  {FIELD_LABELS[field]}
                  {!REQUIRED_FIELDS.includes(field) && <small> (optional)</small>}
                </span>
                <select value={mapping[field]} onChange={(e) => setMapping({ ...mapping, [field]: e.target.value })}>
                  <option value="">— not in the file —</option>
                  {preview.columns.map((c, i) => (
                    <option key={i} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
          {missing.length > 0 && (
            <p className="notice warn" role="status">
              Choose a column for {missing.map((f) => FIELD_LABELS[f]).join(', ')}.
            </p>
          )}
          <div className="form-actions">
            <button
              type="button"
              className="button primary"
              disabled={missing.length > 0 || start.busy}
              onClick={() => void start.run()}
            >
              {start.busy ? 'Uploading…' : 'Start batch'}
            </button>
          </div>
          <ErrorNotice error={start.error} />
        </>
      )}
    </Card>
  );
}

function BatchList() {
  const [batches, setBatches] = useState<BatchStatus[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const load = useAction(async (cursor?: string) => {
    const page = await listBatches(20, cursor);
    setBatches((prev) => (cursor ? [...prev, ...page.items] : page.items));
    setNext(page.next);
  });
  useEffect(() => void load.run(), []);
  return (
    <Card title="Your batches">
      <ErrorNotice error={load.error} />
      <DataTable
        columns={[
          'Batch',
          'Status',
          'Created',
          { label: 'Rows', num: true },
          { label: 'Matched', num: true },
          { label: 'Match rate', num: true },
          { label: 'Rejected', num: true },
        ]}
        rows={batches.length}
        busy={load.busy}
        empty="No batches yet. Upload a file above to start one."
      >
        {batches.map((b) => (
          <tr key={b.id}>
            <td>
              <Link to={`/batches/${b.id}`}>Batch {b.id}</Link>
            </td>
            <td>
              <StatusBadge status={b.status} />
            </td>
            <td>{when(b.created_at)}</td>
            <td className="num">{count(b.total)}</td>
            <td className="num">{count(b.matched)}</td>
            <td className="num">{percent(b.matched, b.processed - b.erased)}</td>
            <td className="num">{count(b.rejected)}</td>
          </tr>
        ))}
      </DataTable>
      {next && (
        <button type="button" className="button secondary" disabled={load.busy} onClick={() => void load.run(next)}>
          Show older batches
        </button>
      )}
    </Card>
  );
}

export function BatchesPage() {
  return (
    <>
      <PageHeader
        title="Batches"
        lead="Upload a list of properties, map its columns, and download every owner's phones when it finishes."
      />
      <Upload />
      <BatchList />
    </>
  );
}
