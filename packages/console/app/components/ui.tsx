/** Small building blocks shared by the pages. */
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api.ts';
import { phone } from '../format.ts';

export function PageHeader({ title, lead, actions }: { title: string; lead?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {lead && <p className="lead">{lead}</p>}
      </div>
      {actions && <div className="actions">{actions}</div>}
    </header>
  );
}

export function Card({ title, children, actions }: { title?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      {(title || actions) && (
        <div className="card-head">
          {title && <h2>{title}</h2>}
          {actions && <div className="actions">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

export function Stat({ label, value, tone }: { label: string; value: ReactNode; tone?: 'good' | 'warn' | 'bad' }) {
  return (
    <div className={`stat ${tone ?? ''}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'info';
export function Badge({
  tone = 'neutral',
  children,
  className = '',
}: {
  tone?: Tone;
  children: ReactNode;
  className?: string;
}) {
  return <span className={`badge ${tone} ${className}`}>{children}</span>;
}

const STATUS_TONES: Record<string, Tone> = {
  completed: 'good',
  delivered: 'good',
  running: 'info',
  queued: 'neutral',
  pending: 'neutral',
  no_match: 'warn',
  cancelled: 'warn',
  failed: 'bad',
  rejected: 'bad',
};
export const StatusBadge = ({ status }: { status: string }) => (
  <Badge tone={STATUS_TONES[status] ?? 'neutral'} className="status">
    {status.replace('_', ' ')}
  </Badge>
);

export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const message =
    error instanceof ApiError
      ? `${error.message}${error.code ? ` (error ${error.code})` : ''}`
      : error instanceof Error
        ? error.message
        : String(error);
  return (
    <div className="notice bad" role="alert">
      {message}
    </div>
  );
}

/** A secret shown once, with a copy button. */
export function SecretNotice({ label, secret, onDismiss }: { label: string; secret: string; onDismiss: () => void }) {
  return (
    <div className="notice secret" role="status">
      <p>
        <strong>{label}</strong> — copy it now: it will not be shown again.
      </p>
      <div className="secret-row">
        <input
          className="secret-value mono"
          readOnly
          value={secret}
          aria-label={label}
          onFocus={(e) => e.target.select()}
        />
        <CopyButton text={secret} />
        <DoneButton onClick={onDismiss} />
      </div>
    </div>
  );
}

/** Copies `text` to the clipboard, and says so once it has. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button secondary"
      onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

/** Dismisses a notice. */
export const DoneButton = ({ onClick }: { onClick: () => void }) => (
  <button type="button" className="button ghost" onClick={onClick}>
    Done
  </button>
);

/** A form's submit button in its actions row. */
export const SubmitButton = ({ label, disabled }: { label: string; disabled: boolean }) => (
  <div className="form-actions">
    <button type="submit" className="button primary" disabled={disabled}>
      {label}
    </button>
  </div>
);

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** Runs an async action, tracks busy and error state for a button. */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await action(...args);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, setError };
}

/** A destructive action that asks for a second click instead of a modal dialog. */
export function ConfirmButton({
  label,
  text,
  confirmLabel,
  onConfirm,
  disabled,
  small,
}: {
  /** Accessible name of the first button (and of the group while asking). */
  label: string;
  /** Visible text of the first button; default the label. */
  text?: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  small?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const size = small ? ' small' : '';
  if (!asking)
    return (
      <button
        type="button"
        className={`button danger-outline${size}`}
        aria-label={text ? label : undefined}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {text ?? label}
      </button>
    );
  return (
    <span className="confirm" role="group" aria-label={label}>
      <button
        type="button"
        className={`button danger${size}`}
        autoFocus
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className={`button ghost${size}`} onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}

/** A column heading: its text; `num` right-aligns a number column; `hidden` names it for screen readers only (an actions column). */
export type Column = string | { label: string; num?: boolean; hidden?: boolean };

const columnOf = (column: Column) => (typeof column === 'string' ? { label: column } : column);

function Heading({ column }: { column: Column }) {
  const { label, num, hidden } = columnOf(column);
  return (
    <th scope="col" className={num ? 'num' : undefined}>
      {hidden ? <span className="sr-only">{label}</span> : label}
    </th>
  );
}

/**
 * Gives each body cell of the table a `data-label`, its column's heading, which the narrow
 * layout shows beside the value when rows become cards (styles.css, `.table.cards`). The
 * rows are the pages' own `<tr>`s (often inside row components), so the labels are set on
 * the DOM once rendered and again whenever rows or cells come and go. A cell spanning
 * columns (a detail row) and a hidden heading (actions) get none.
 */
function useCellLabels(columns: readonly Column[], shown: boolean) {
  const table = useRef<HTMLTableElement>(null);
  const labels = columns.map((c) => (columnOf(c).hidden ? '' : columnOf(c).label));
  const key = labels.join('\n');
  useLayoutEffect(() => {
    const body = table.current?.tBodies[0];
    if (!body) return;
    const label = () => {
      for (const row of Array.from(body.rows)) {
        let at = 0;
        for (const cell of Array.from(row.cells)) {
          const name = cell.colSpan === 1 ? labels[at] : undefined;
          if (name) {
            if (cell.dataset.label !== name) cell.dataset.label = name;
          } else if (cell.dataset.label !== undefined) delete cell.dataset.label;
          at += cell.colSpan;
        }
      }
    };
    label();
    const observer = new MutationObserver(label);
    observer.observe(body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [key, shown]);
  return table;
}

/**
 * A list as a table: `empty` while it has no rows (and none are loading), else the table
 * with its column headings and `children` as its rows, in a horizontal scroller unless
 * `scroll` is false. On a narrow screen each row is a card of "heading: value" lines.
 */
export function DataTable({
  columns,
  rows,
  busy = false,
  empty,
  caption,
  compact = false,
  scroll = true,
  children,
}: {
  columns: readonly Column[];
  /** How many rows there are. */
  rows: number;
  busy?: boolean;
  empty: ReactNode;
  caption?: string;
  compact?: boolean;
  scroll?: boolean;
  children: ReactNode;
}) {
  const shown = rows > 0 || busy;
  const ref = useCellLabels(columns, shown);
  if (!shown) return <Empty>{empty}</Empty>;
  const table = (
    <table ref={ref} className={compact ? 'table cards compact' : 'table cards'}>
      {caption && <caption className="sr-only">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <Heading key={columnOf(column).label} column={column} />
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return scroll ? <div className="table-scroll">{table}</div> : table;
}

/** A phone number as a `tel:` link (E.164 in the link, formatted in the text) that never breaks inside. */
export const PhoneLink = ({ number }: { number: string }) => (
  <a className="phone" href={`tel:${number}`}>
    {phone(number)}
  </a>
);

/** Check boxes choosing some of `options` (scopes, event types). */
export function CheckList<T extends string>({
  legend,
  options,
  selected,
  onChange,
  className = 'checks',
}: {
  legend: string;
  options: readonly { value: T; label: ReactNode }[];
  selected: readonly T[];
  onChange: (selected: T[]) => void;
  className?: string;
}) {
  return (
    <fieldset className={className}>
      <legend>{legend}</legend>
      {options.map(({ value, label }) => (
        <label key={value} className="check">
          <input
            type="checkbox"
            checked={selected.includes(value)}
            onChange={(e) => onChange(e.target.checked ? [...selected, value] : selected.filter((s) => s !== value))}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
