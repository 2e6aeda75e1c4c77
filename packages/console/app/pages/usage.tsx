/**
 * Usage of the account: hits and misses per UTC day as SVG bars (no chart library), totals,
 * per API client, the monthly quotas with what is left, and the API's rate limit.
 */
import { useEffect, useState } from 'react';
import { getUsage, type Usage } from '../api.ts';
import { Card, DataTable, ErrorNotice, PageHeader, Stat } from '../components/ui.tsx';

const number = (n: number) => n.toLocaleString('en-US');

/** The first day of this month and today (UTC), YYYY-MM-DD. */
function thisMonth(): { from: string; to: string } {
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/** Every day from..to, so days without work show as empty slots. */
function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** Stacked bars: hits (dark) under misses (light), one per day. */
function DailyBars({ usage }: { usage: Usage }) {
  const byDay = new Map(usage.data.map((row) => [row.day, row]));
  const days = daysOf(usage.from, usage.to);
  const max = Math.max(1, ...usage.data.map((r) => r.hits + r.misses));
  const width = 640;
  const height = 180;
  const slot = width / Math.max(days.length, 1);
  const bar = Math.max(2, slot * 0.7);
  const y = (n: number) => (n / max) * (height - 20);
  return (
    <figure className="usage-chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`Hits and misses per day from ${usage.from} to ${usage.to}: ${number(usage.totals.hits)} hits, ${number(usage.totals.misses)} misses`}
        preserveAspectRatio="none"
        width="100%"
        height={height}
      >
        <line x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} stroke="#e2e8f0" />
        {days.map((day, i) => {
          const row = byDay.get(day);
          const hits = row?.hits ?? 0;
          const misses = row?.misses ?? 0;
          const x = i * slot + (slot - bar) / 2;
          return (
            <g key={day}>
              <title>{`${day}: ${number(hits)} hits, ${number(misses)} misses, ${number(row?.phones ?? 0)} phones`}</title>
              <rect x={x} width={bar} y={height - y(hits)} height={y(hits)} fill="#1d4ed8" />
              <rect x={x} width={bar} y={height - y(hits) - y(misses)} height={y(misses)} fill="#93c5fd" />
            </g>
          );
        })}
      </svg>
      <figcaption className="muted">
        <span className="swatch" style={{ background: '#1d4ed8' }} /> hits{' '}
        <span className="swatch" style={{ background: '#93c5fd' }} /> misses · {usage.from} to {usage.to} (UTC) · most
        in a day: {number(max)}
      </figcaption>
    </figure>
  );
}

function QuotaLine({ name, quota }: { name: string; quota: Usage['quotas']['hits'] }) {
  if (!quota) return <Stat label={`Monthly ${name} quota`} value="none" />;
  const share = quota.limit > 0 ? quota.used / quota.limit : 1;
  const tone = share >= 1 ? 'bad' : share >= 0.8 ? 'warn' : 'good';
  return (
    <Stat
      label={`Monthly ${name} quota`}
      tone={tone}
      value={
        <>
          {number(quota.used)} / {number(quota.limit)}{' '}
          <span className="muted small">
            ({number(quota.remaining)} left, resets {quota.resets_at.slice(0, 10)})
          </span>
        </>
      }
    />
  );
}

export function UsagePage() {
  const [range, setRange] = useState(thisMonth);
  const [byDay, setByDay] = useState<Usage | undefined>();
  const [byClient, setByClient] = useState<Usage | undefined>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    let live = true;
    Promise.all([getUsage({ ...range, group_by: 'day' }), getUsage({ ...range, group_by: 'client' })]).then(
      ([days, clients]) => {
        if (!live) return;
        setByDay(days);
        setByClient(clients);
        setError(undefined);
      },
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [range]);

  const totals = byDay?.totals;
  return (
    <>
      <PageHeader
        title="Usage"
        lead="What this account used, counted once where the work was stored: a hit is a trace or batch row with at least one phone."
      />
      <ErrorNotice error={error} />
      <Card title="Range">
        <form className="inline-form" onSubmit={(e) => e.preventDefault()}>
          <label>
            From{' '}
            <input
              type="date"
              value={range.from}
              max={range.to}
              onChange={(e) => e.target.value && setRange({ ...range, from: e.target.value })}
            />
          </label>
          <label>
            To{' '}
            <input
              type="date"
              value={range.to}
              min={range.from}
              onChange={(e) => e.target.value && setRange({ ...range, to: e.target.value })}
            />
          </label>
        </form>
      </Card>
      {totals && byDay && (
        <Card title="Per day">
          <dl className="stats">
            <Stat label="Hits" value={number(totals.hits)} />
            <Stat label="Misses" value={number(totals.misses)} />
            <Stat label="Phones returned" value={number(totals.phones)} />
            <Stat label="Sync traces" value={number(totals.sync_traces)} />
            <Stat label="Batch rows" value={number(totals.batch_rows)} />
            <Stat label="Webhook deliveries" value={number(totals.webhook_deliveries)} />
          </dl>
          <DailyBars usage={byDay} />
        </Card>
      )}
      {byDay && (
        <Card title="Limits">
          <dl className="stats">
            <QuotaLine name="hits" quota={byDay.quotas.hits} />
            <QuotaLine name="rows" quota={byDay.quotas.rows} />
            <Stat
              label="API rate limit"
              value={
                byDay.rate_limit
                  ? `${number(byDay.rate_limit.limit)} requests / ${byDay.rate_limit.window_seconds} s`
                  : 'none'
              }
            />
          </dl>
        </Card>
      )}
      {byClient && (
        <Card title="Per API client">
          <DataTable
            columns={['Client', 'Sync traces', 'Batch rows', 'Hits', 'Misses', 'Phones', 'Webhooks']}
            rows={byClient.data.length}
            empty="Nothing used in this range."
            caption="Usage per API client"
          >
            {byClient.data.map((row) => (
              <tr key={row.client_id ?? ''}>
                <td className="mono">{row.client_id ?? '(account)'}</td>
                <td>{number(row.sync_traces)}</td>
                <td>{number(row.batch_rows)}</td>
                <td>{number(row.hits)}</td>
                <td>{number(row.misses)}</td>
                <td>{number(row.phones)}</td>
                <td>{number(row.webhook_deliveries)}</td>
              </tr>
            ))}
          </DataTable>
        </Card>
      )}
    </>
  );
}
