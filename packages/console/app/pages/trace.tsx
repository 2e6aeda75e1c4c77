/** Trace one property: the six Property fields, the answer below. */
import { useEffect, useState, type FormEvent } from 'react';
import { getTrace, trace, type Property, type PropertyResponse } from '../api.ts';
import { TraceResultView } from '../components/trace-result.tsx';
import { Card, ErrorNotice, PageHeader, useAction } from '../components/ui.tsx';
import { FIELD_LABELS, FIELDS, REQUIRED_FIELDS, type Field } from '../fields.ts';

const empty = Object.fromEntries(FIELDS.map((f) => [f, ''])) as Record<Field, string>;

export function TracePage() {
  const [form, setForm] = useState(empty);
  const [result, setResult] = useState<PropertyResponse | null>(null);
  const submit = useAction(async () => {
    const property = Object.fromEntries(
      Object.entries(form)
        .map(([k, v]) => [k, v.trim()])
        .filter(([, v]) => v !== ''),
    ) as Property;
    setResult(null);
    setResult(await trace(property));
  });
  // A trace still pending after the server's deadline is polled until it has an answer.
  useEffect(() => {
    if (result?.status !== 'pending') return;
    const timer = setTimeout(() => {
      // A failed poll tries again a second later (a new object re-runs this effect).
      getTrace(result.id).then(setResult, () => setResult({ ...result }));
    }, 1000);
    return () => clearTimeout(timer);
  }, [result]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run();
  };
  return (
    <>
      <PageHeader
        title="Trace one property"
        lead="Look up the owners of one address and their phone numbers. The owner's name is optional and sharpens the match."
      />
      <Card title="Property">
        <form className="form-grid" onSubmit={onSubmit}>
          {FIELDS.map((field) => (
            <label key={field} className={`field ${field === 'street_address' ? 'wide' : ''}`}>
              <span>
                {FIELD_LABELS[field]}
                {!REQUIRED_FIELDS.includes(field) && <small> (optional)</small>}
              </span>
              <input
                name={field}
                value={form[field]}
                required={REQUIRED_FIELDS.includes(field)}
                autoComplete="off"
                maxLength={field === 'street_address' ? 200 : 100}
                onChange={(e) => setForm({ ...form, [field]: e.target.value })}
              />
            </label>
          ))}
          <div className="form-actions">
            <button className="button primary" type="submit" disabled={submit.busy}>
              {submit.busy ? 'Tracing…' : 'Trace'}
            </button>
            <button
              type="button"
              className="button ghost"
              onClick={() => {
                setForm(empty);
                setResult(null);
              }}
            >
              Clear
            </button>
          </div>
        </form>
        <ErrorNotice error={submit.error} />
      </Card>
      {result && (
        <Card title="Result">
          <div aria-live="polite">
            <TraceResultView result={result} />
          </div>
        </Card>
      )}
    </>
  );
}
