/** Batches: upload a file and map its columns, then the account's batches with their match rate. */
import { Fragment, useEffect, useState } from 'react';
import { mappingWarnings, resolveColumns, type ColumnMap } from '@skiptrace/batches/column-rules';
import { splitTags } from '@skiptrace/contracts/batch-tags';
import { listBatches, submitBatch, type BatchStatus, type ReadChoice } from '../api.ts';
import { getConfig } from '../auth.ts';
import { Badge, Card, DataTable, ErrorNotice, PageHeader, StatusBadge, useAction } from '../components/ui.tsx';
import { count, duration, percent, share, when } from '../format.ts';
import { FIELD_LABELS, MAPPING_FIELDS, REQUIRED_FIELDS, type MappingField } from '../fields.ts';
import { formatOf, previewFile, type FilePreview } from '../preview.ts';
import { Link, useRoute } from '../router.tsx';

type Mapping = Record<MappingField, string>;

/** The server's mapping (saved for this header set, or by alias) as the form's choices. */
const mappingOf = (preview: FilePreview): Mapping =>
  Object.fromEntries(
    MAPPING_FIELDS.map((f) => [f, (preview.mapping as Record<string, string | undefined>)[f] ?? '']),
  ) as Mapping;

/** Encodings the user may force (labels of the WHATWG Encoding Standard, which the server decodes). */
const ENCODINGS = [
  ['utf-8', 'UTF-8'],
  ['windows-1252', 'Windows-1252 (Western, Excel on Windows)'],
  ['iso-8859-1', 'ISO-8859-1 (Latin-1)'],
  ['utf-16le', 'UTF-16 LE'],
  ['utf-16be', 'UTF-16 BE'],
  ['macintosh', 'Mac Roman'],
] as const;
const DELIMITERS = [
  [',', 'Comma ,'],
  [';', 'Semicolon ;'],
  ['\t', 'Tab'],
  ['|', 'Pipe |'],
] as const;
const ENCODING_SOURCES: Record<string, string> = {
  bom: 'from its byte-order mark',
  declared: 'as chosen',
  'utf16-pattern': 'detected',
  detected: 'detected',
  ascii: 'plain ASCII',
};

function Upload() {
  const { navigate } = useRoute();
  const [file, setFile] = useState<File | null>(null);
  const [read, setRead] = useState<ReadChoice>({});
  const [preview, setPreview] = useState<FilePreview | null>(null);
  const [mapping, setMapping] = useState<Mapping | null>(null);
  const [remember, setRemember] = useState(true);
  const [name, setName] = useState('');
  const [tags, setTags] = useState('');
  const [fresh, setFresh] = useState(false);
  const [previewError, setPreviewError] = useState<unknown>(null);
  const sample = getConfig().sampleCsv;

  /** Reads the file's start on the server, as the upload will; `choice` forces encoding, delimiter or sheet. */
  const load = async (chosen: File | null, choice: ReadChoice) => {
    if (chosen !== file) setName(chosen?.name ?? '');
    setFile(chosen);
    setRead(choice);
    setPreview(null);
    setMapping(null);
    setPreviewError(null);
    if (!chosen) return;
    try {
      const p = await previewFile(chosen, choice);
      setPreview(p);
      setMapping(mappingOf(p));
      setRemember(p.mapping_source !== 'saved');
    } catch (err) {
      setPreviewError(err);
    }
  };
  const missing = mapping ? REQUIRED_FIELDS.filter((f) => !mapping[f]) : [];
  const chosenMap = (): ColumnMap =>
    Object.fromEntries(Object.entries(mapping ?? {}).filter(([, column]) => column !== '')) as ColumnMap;
  // The same warnings the server gives, live as the mapping changes (the rules are the server's own file).
  const warnings =
    preview && mapping ? mappingWarnings(preview.columns, resolveColumns(preview.columns, chosenMap())) : [];
  const start = useAction(async () => {
    if (!file || !preview || !mapping) return;
    const accepted = await submitBatch(file, formatOf(file), chosenMap() as Record<string, string>, read, remember, {
      name: name.trim() || file.name,
      tags: splitTags(tags),
      fresh,
    });
    navigate(`/batches/${accepted.id}`);
  });
  const encodingNote =
    preview?.encoding &&
    `${preview.encoding.toUpperCase()}${preview.encoding_source ? `, ${ENCODING_SOURCES[preview.encoding_source] ?? preview.encoding_source}` : ''}`;

  return (
    <Card title="New batch">
      <div className="upload">
        <label className="field file">
          <span>CSV file or Excel workbook</span>
          <input
            type="file"
            accept=".csv,.txt,.tsv,.xlsx,.ndjson,.jsonl,.json,text/csv,application/json,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(e) => void load(e.target.files?.[0] ?? null, {})}
            aria-describedby="file-help"
          />
        </label>
        <p id="file-help" className="muted">
          CSV (comma, semicolon, tab or pipe; any common encoding), an Excel workbook (.xlsx), NDJSON or a JSON array —
          up to a million rows.
          {sample && (
            <>
              {' '}
              No file at hand? <a href={sample}>Download a sample CSV</a> of demo properties.
            </>
          )}
        </p>
      </div>
      <ErrorNotice error={previewError} />
      {file && (preview || previewError !== null) && (
        <div className="form-grid read-options">
          {formatOf(file) !== 'xlsx' && (
            <label className="field">
              <span>Encoding</span>
              <select
                value={read.charset ?? ''}
                onChange={(e) => void load(file, { ...read, charset: e.target.value || undefined })}
              >
                <option value="">Detect{preview?.encoding && !read.charset ? ` (${preview.encoding})` : ''}</option>
                {ENCODINGS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          )}
          {formatOf(file) === 'csv' && (
            <label className="field">
              <span>Delimiter</span>
              <select
                value={read.delimiter ?? ''}
                onChange={(e) => void load(file, { ...read, delimiter: e.target.value || undefined })}
              >
                <option value="">
                  Detect
                  {preview?.delimiter && !read.delimiter
                    ? ` (${DELIMITERS.find(([d]) => d === preview.delimiter)?.[1] ?? preview.delimiter})`
                    : ''}
                </option>
                {DELIMITERS.map(([value, label]) => (
                  <option key={value} value={value === '\t' ? 'tab' : value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          )}
          {formatOf(file) === 'xlsx' && preview?.sheets && (
            <label className="field">
              <span>Sheet</span>
              <select
                value={read.sheet ?? preview.sheet ?? ''}
                onChange={(e) => void load(file, { ...read, sheet: e.target.value })}
              >
                {preview.sheets.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
      )}
      {preview && mapping && (
        <>
          <h3 className="section-title">Preview</h3>
          <p className="muted" data-testid="preview-facts">
            {file?.name} · {preview.format.toUpperCase()}
            {encodingNote && ` · ${encodingNote}`}
            {preview.sheet && ` · sheet ${preview.sheet}`} · {preview.columns.length} columns · first{' '}
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
          <p className="muted">
            {preview.mapping_source === 'saved'
              ? 'Your saved mapping for files with these columns. Change any that are wrong.'
              : 'Pre-filled from the column names the server recognises. Change any that are wrong.'}
          </p>
          <div className="form-grid mapping">
            {MAPPING_FIELDS.map((field) => (
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
          {warnings.map((w) => (
            <p key={w.code} className="notice warn" role="alert" data-warning={w.code}>
              {w.message}
            </p>
          ))}
          <label className="checkbox">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember this
            mapping for files with these columns
          </label>
          <h3 className="section-title">List</h3>
          <div className="form-grid">
            <label className="field">
              <span>Name</span>
              <input value={name} maxLength={200} onChange={(e) => setName(e.target.value)} placeholder={file?.name} />
            </label>
            <label className="field">
              <span>
                Tags <small>(optional, comma-separated)</small>
              </span>
              <input
                value={tags}
                maxLength={400}
                onChange={(e) => setTags(e.target.value)}
                placeholder="austin, absentee"
              />
            </label>
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={fresh} onChange={(e) => setFresh(e.target.checked)} /> Force fresh: trace
            every row again, even those traced in the last 24 hours
          </label>
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

/** The tags of a list, as small labels. */
export function Tags({ tags }: { tags: readonly string[] }) {
  return (
    <span className="tags">
      {tags.map((t) => (
        <Fragment key={t}>
          {' '}
          <Badge tone="info">{t}</Badge>
        </Fragment>
      ))}
    </span>
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
          'Name',
          'Status',
          'Created',
          { label: 'Rows', num: true },
          { label: 'Matched', num: true },
          { label: 'Phones found', num: true },
          { label: 'Mobile share', num: true },
          { label: 'Reused', num: true },
          { label: 'Rejected', num: true },
          { label: 'Duration', num: true },
        ]}
        rows={batches.length}
        busy={load.busy}
        empty="No batches yet. Upload a file above to start one."
      >
        {batches.map((b) => (
          <tr key={b.id}>
            <td>
              <Link to={`/batches/${b.id}`}>{b.name}</Link>
              {b.tags.length > 0 && <Tags tags={b.tags} />}
            </td>
            <td>
              <StatusBadge status={b.status} />
            </td>
            <td>{when(b.created_at)}</td>
            <td className="num">{count(b.total)}</td>
            <td className="num" title={`match rate ${percent(b.matched, b.processed - b.erased)}`}>
              {count(b.matched)}
            </td>
            <td className="num">{count(b.phones)}</td>
            <td className="num">{share(b.mobile_share)}</td>
            <td className="num">{count(b.reused)}</td>
            <td className="num">{count(b.rejected)}</td>
            <td className="num">{duration(b.duration_seconds)}</td>
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
