/** Small building blocks shared by the pages. */
import { useState, type ReactNode } from 'react';
import { ApiError } from '../api.ts';

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
  const [copied, setCopied] = useState(false);
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
        <button
          type="button"
          className="button secondary"
          onClick={() => void navigator.clipboard?.writeText(secret).then(() => setCopied(true))}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="button ghost" onClick={onDismiss}>
          Done
        </button>
      </div>
    </div>
  );
}

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
