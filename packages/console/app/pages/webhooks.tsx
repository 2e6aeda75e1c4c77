/**
 * Webhooks: endpoints (create with the secret shown once, rotate, disable, delete), and for
 * the selected endpoint its delivery log with every attempt, replay, a test event, and a
 * chart of delivery outcomes per minute. The log refreshes every few seconds.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { AlignedData } from 'uplot';
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  replayDelivery,
  rotateEndpointSecret,
  testEndpoint,
  updateEndpoint,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../api.ts';
import { Chart } from '../components/chart.tsx';
import {
  Badge,
  Card,
  CheckList,
  ConfirmButton,
  DataTable,
  Empty,
  ErrorNotice,
  PageHeader,
  SecretNotice,
  StatusBadge,
  SubmitButton,
  useAction,
} from '../components/ui.tsx';
import { when } from '../format.ts';

const EVENT_TYPES = ['plant.added', 'skiptrace.completed', 'batch.completed'] as const;
type EventType = (typeof EVENT_TYPES)[number];
const REFRESH_MS = 3000;

function CreateEndpoint({ onCreated }: { onCreated: (e: WebhookEndpoint, secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventType[]>([...EVENT_TYPES]);
  const create = useAction(async () => {
    const all = events.length === EVENT_TYPES.length;
    const created = await createEndpoint({
      url: url.trim(),
      ...(description.trim() ? { description: description.trim() } : {}),
      events: all ? null : events,
    });
    const { secret, ...endpoint } = created;
    onCreated(endpoint, secret);
    setUrl('');
    setDescription('');
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <form className="form-grid" onSubmit={submit}>
      <label className="field wide">
        <span>Endpoint URL</span>
        <input
          type="url"
          required
          placeholder="https://example.com/webhooks/skiptrace"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
      </label>
      <label className="field wide">
        <span>
          Description <small>(optional)</small>
        </span>
        <input value={description} maxLength={500} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <CheckList
        legend="Events"
        className="checks wide"
        options={EVENT_TYPES.map((t) => ({ value: t, label: <span className="mono">{t}</span> }))}
        selected={events}
        onChange={setEvents}
      />
      <SubmitButton label="Create endpoint" disabled={create.busy || events.length === 0} />
      <div className="wide">
        <ErrorNotice error={create.error} />
      </div>
    </form>
  );
}

function endpointState(e: WebhookEndpoint) {
  if (e.enabled) return <Badge tone="good">enabled</Badge>;
  return <Badge tone={e.disabled_reason === 'manual' ? 'neutral' : 'bad'}>disabled ({e.disabled_reason})</Badge>;
}

/**
 * Attempts per minute that succeeded (2xx) and that failed, for the outcome chart: every
 * minute of the last half hour (or since the oldest attempt listed, up to a day), zeros included.
 */
function outcomesPerMinute(deliveries: WebhookDelivery[], now = Date.now()): AlignedData {
  const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60;
  const buckets = new Map<number, [number, number]>();
  let oldest = minuteOf(now) - 29 * 60;
  for (const d of deliveries)
    for (const a of d.attempts) {
      const minute = minuteOf(new Date(a.attempted_at).getTime());
      oldest = Math.max(Math.min(oldest, minute), minuteOf(now) - 24 * 3600);
      const b = buckets.get(minute) ?? [0, 0];
      const ok = a.status_code !== null && a.status_code >= 200 && a.status_code < 300;
      b[ok ? 0 : 1]++;
      buckets.set(minute, b);
    }
  const xs: number[] = [];
  for (let m = oldest; m <= minuteOf(now); m += 60) xs.push(m);
  return [xs, xs.map((x) => buckets.get(x)?.[0] ?? 0), xs.map((x) => buckets.get(x)?.[1] ?? 0)];
}

function lastAttempt(d: WebhookDelivery) {
  return d.attempts[d.attempts.length - 1];
}

function DeliveryRow({ delivery, onReplay }: { delivery: WebhookDelivery; onReplay: () => void }) {
  const [open, setOpen] = useState(false);
  const last = lastAttempt(delivery);
  return (
    <>
      <tr>
        <td className="nowrap">{when(delivery.created_at)}</td>
        <td className="mono">{delivery.event_type}</td>
        <td>
          <StatusBadge status={delivery.status} />
        </td>
        <td className="num">{delivery.attempt_count}</td>
        <td className="num">{last ? (last.status_code ?? 'no answer') : '—'}</td>
        <td className="num">{last ? `${last.duration_ms} ms` : '—'}</td>
        <td className="actions-cell">
          <div className="row-actions">
            <button
              type="button"
              className="button ghost small"
              aria-expanded={open}
              aria-label={`Attempts of delivery ${delivery.id}`}
              onClick={() => setOpen(!open)}
            >
              Attempts
            </button>
            <button
              type="button"
              className="button secondary small"
              aria-label={`Replay delivery ${delivery.id}`}
              onClick={onReplay}
            >
              Replay
            </button>
          </div>
        </td>
      </tr>
      {open && (
        <tr className="detail-row">
          <td colSpan={7}>
            <p className="muted mono">{delivery.id}</p>
            <DataTable
              columns={[
                'Attempted',
                'Trigger',
                { label: 'HTTP status', num: true },
                { label: 'Latency', num: true },
                'Error or response',
              ]}
              rows={delivery.attempts.length}
              empty="Not attempted yet."
              caption={`Attempts of delivery ${delivery.id}`}
              compact
              scroll={false}
            >
              {delivery.attempts.map((a, i) => (
                <tr key={i}>
                  <td className="nowrap">{when(a.attempted_at)}</td>
                  <td>{a.trigger}</td>
                  <td className="num">{a.status_code ?? '—'}</td>
                  <td className="num">{a.duration_ms} ms</td>
                  <td className="mono clip">{a.error ?? a.response_body ?? ''}</td>
                </tr>
              ))}
            </DataTable>
          </td>
        </tr>
      )}
    </>
  );
}

function EndpointDetail({
  endpoint,
  onChanged,
  onDeleted,
  onSecret,
}: {
  endpoint: WebhookEndpoint;
  onChanged: (e: WebhookEndpoint) => void;
  onDeleted: () => void;
  onSecret: (secret: string) => void;
}) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[]>([]);
  const refresh = useAction(async () => setDeliveries(await listDeliveries(endpoint.id)));
  useEffect(() => {
    void refresh.run();
    const timer = setInterval(() => void refresh.run(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [endpoint.id]);
  const action = useAction(async (kind: 'test' | 'rotate' | 'toggle' | 'delete' | 'replay', id?: string) => {
    if (kind === 'test') await testEndpoint(endpoint.id);
    if (kind === 'replay' && id) await replayDelivery(id);
    if (kind === 'rotate') {
      const { secret, ...rest } = await rotateEndpointSecret(endpoint.id);
      onChanged(rest);
      onSecret(secret);
    }
    if (kind === 'toggle') onChanged(await updateEndpoint(endpoint.id, { enabled: !endpoint.enabled }));
    if (kind === 'delete') {
      await deleteEndpoint(endpoint.id);
      onDeleted();
      return;
    }
    setDeliveries(await listDeliveries(endpoint.id));
  });
  const outcomes = useMemo(() => outcomesPerMinute(deliveries), [deliveries]);

  return (
    <>
      <Card
        title={endpoint.description || endpoint.url}
        actions={
          <>
            <button type="button" className="button primary small" onClick={() => void action.run('test')}>
              Send test event
            </button>
            <button type="button" className="button secondary small" onClick={() => void action.run('rotate')}>
              Rotate secret
            </button>
            <button type="button" className="button secondary small" onClick={() => void action.run('toggle')}>
              {endpoint.enabled ? 'Disable' : 'Enable'}
            </button>
            <ConfirmButton
              label="Delete endpoint"
              text="Delete"
              confirmLabel="Delete with its deliveries"
              small
              onConfirm={() => void action.run('delete')}
            />
          </>
        }
      >
        <dl className="facts">
          <div>
            <dt>URL</dt>
            <dd className="mono">{endpoint.url}</dd>
          </div>
          <div>
            <dt>State</dt>
            <dd>{endpointState(endpoint)}</dd>
          </div>
          <div>
            <dt>Events</dt>
            <dd>{endpoint.events ? endpoint.events.join(', ') : 'all'}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{when(endpoint.created_at)}</dd>
          </div>
          {endpoint.previous_secret_expires_at && (
            <div>
              <dt>Previous secret signs until</dt>
              <dd>{when(endpoint.previous_secret_expires_at)}</dd>
            </div>
          )}
        </dl>
        <ErrorNotice error={action.error} />
      </Card>
      <Card title="Delivery outcomes">
        {deliveries.some((d) => d.attempts.length > 0) ? (
          <Chart
            data={outcomes}
            bars
            series={[
              { label: 'Succeeded', color: '#047857', unit: 'attempts' },
              { label: 'Failed', color: '#b42318', unit: 'attempts' },
            ]}
            description="Delivery attempts per minute that succeeded and that failed."
          />
        ) : (
          <p className="muted">No attempts yet. Send a test event to see one.</p>
        )}
      </Card>
      <Card title="Delivery log">
        <ErrorNotice error={refresh.error} />
        <DataTable
          columns={[
            'Created',
            'Event',
            'Status',
            { label: 'Attempts', num: true },
            { label: 'Last HTTP status', num: true },
            { label: 'Last latency', num: true },
            { label: 'Actions', hidden: true },
          ]}
          rows={deliveries.length}
          empty="No deliveries yet."
          caption={`Deliveries to ${endpoint.url}, newest first`}
        >
          {deliveries.map((d) => (
            <DeliveryRow key={d.id} delivery={d} onReplay={() => void action.run('replay', d.id)} />
          ))}
        </DataTable>
      </Card>
    </>
  );
}

export function WebhooksPage() {
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const load = useAction(async () => {
    const list = await listEndpoints();
    setEndpoints(list);
    setSelected((s) => s ?? list[0]?.id ?? null);
  });
  useEffect(() => void load.run(), []);
  const current = endpoints.find((e) => e.id === selected);
  const replace = (e: WebhookEndpoint) => setEndpoints((list) => list.map((x) => (x.id === e.id ? e : x)));

  return (
    <>
      <PageHeader
        title="Webhooks"
        lead="Signed HTTP callbacks (Standard Webhooks) when a property is added, a trace completes or a batch finishes."
      />
      {secret && <SecretNotice label={secret.label} secret={secret.value} onDismiss={() => setSecret(null)} />}
      <Card title="New endpoint">
        <CreateEndpoint
          onCreated={(e, s) => {
            setEndpoints((list) => [...list, e]);
            setSelected(e.id);
            setSecret({ label: 'Signing secret', value: s });
          }}
        />
      </Card>
      <Card title="Endpoints">
        <ErrorNotice error={load.error} />
        {endpoints.length === 0 && !load.busy ? (
          <Empty>No endpoints yet.</Empty>
        ) : (
          <ul className="endpoint-list">
            {endpoints.map((e) => (
              <li key={e.id}>
                <button
                  type="button"
                  className="endpoint"
                  aria-pressed={e.id === selected}
                  onClick={() => setSelected(e.id)}
                >
                  <span className="mono">{e.url}</span>
                  {e.description && <span className="muted">{e.description}</span>}
                  {endpointState(e)}
                </button>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {current && (
        <EndpointDetail
          key={current.id}
          endpoint={current}
          onChanged={replace}
          onDeleted={() => {
            setEndpoints((list) => list.filter((x) => x.id !== current.id));
            setSelected(null);
          }}
          onSecret={(s) => setSecret({ label: 'New signing secret', value: s })}
        />
      )}
    </>
  );
}
