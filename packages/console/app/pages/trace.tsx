/**
 * Trace one property: the six Property fields, the owner's mailing address and the parcel
 * number (optional), the answer below.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { getTrace, trace, type PropertyResponse } from '../api.ts';
import { TraceResultView } from '../components/trace-result.tsx';
import { Card, ErrorNotice, PageHeader, useAction } from '../components/ui.tsx';
import {
  FIELD_LABELS,
  FIELDS,
  MAILING_FIELDS,
  maxLength,
  PROPERTY_FIELDS,
  propertyFromForm,
  REQUIRED_FIELDS,
  type Field,
} from '../fields.ts';

const empty = Object.fromEntries(FIELDS.map((f) => [f, ''])) as Record<Field, string>;

export function TracePage() {
  const [form, setForm] = useState(empty);
  const [result, setResult] = useState<PropertyResponse | null>(null);
  const submit = useAction(async () => {
    setResult(null);
    setResult(await trace(propertyFromForm(form)));
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
  // A mailing address is given whole or not at all: one part filled asks for the others.
  const mailingStarted = MAILING_FIELDS.some((f) => form[f].trim() !== '');
  const input = (field: Field, required: boolean) => (
    <label key={field} className={`field ${field.endsWith('street_address') ? 'wide' : ''}`}>
      <span>
        {FIELD_LABELS[field]}
        {!required && <small> (optional)</small>}
      </span>
      <input
        name={field}
        value={form[field]}
        required={required}
        autoComplete="off"
        maxLength={maxLength(field)}
        onChange={(e) => setForm({ ...form, [field]: e.target.value })}
      />
    </label>
  );
  return (
    <>
      <PageHeader
        title="Trace one property"
        lead="Look up the owners of one address and their phone numbers. The owner's name, mailing address and parcel number are optional: they sharpen the match and find an owner who lives elsewhere."
      />
      <Card title="Property">
        <form className="form-grid" onSubmit={onSubmit}>
          {PROPERTY_FIELDS.map((field) => input(field, REQUIRED_FIELDS.includes(field)))}
          <fieldset className="form-grid wide">
            <legend>
              Owner&apos;s mailing address <small>(optional: absentee owners, as lists carry it)</small>
            </legend>
            {MAILING_FIELDS.map((field) => input(field, mailingStarted))}
            {input('apn', false)}
          </fieldset>
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
