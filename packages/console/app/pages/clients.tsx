/** API clients of the account: create (the secret shown once), rotate the secret, revoke. */
import { useEffect, useState, type FormEvent } from 'react';
import {
  createClient,
  listClients,
  revokeClient,
  rotateClientSecret,
  type ApiClient,
  type ApiScope as Scope,
} from '../api.ts';
import {
  Badge,
  Card,
  CheckList,
  ConfirmButton,
  CopyButton,
  DataTable,
  DoneButton,
  ErrorNotice,
  PageHeader,
  SubmitButton,
  useAction,
} from '../components/ui.tsx';
import { TRACE_SCOPES } from '@skiptrace/contracts/scopes';
import { when } from '../format.ts';
import { getConfig } from '../auth.ts';

const SCOPES: { scope: Scope; help: string }[] = [
  { scope: 'read', help: 'GET: poll results, follow and download batches, webhooks' },
  { scope: 'write', help: 'trace a property, upload a batch, erase, cancel, resend deliveries' },
  { scope: 'admin', help: 'manage API clients and webhook endpoints' },
];

interface Shown {
  clientId: string;
  secret: string;
  rotated: boolean;
}

function Credentials({ shown, onDismiss }: { shown: Shown; onDismiss: () => void }) {
  const tokenUrl = `${getConfig().issuer}/oauth/token`;
  return (
    <div className="notice secret" role="status">
      <p>
        <strong>{shown.rotated ? 'New client secret' : 'Client created'}</strong> — copy the secret now: it will not be
        shown again.
      </p>
      <dl className="facts">
        <div>
          <dt>Client ID</dt>
          <dd className="mono">{shown.clientId}</dd>
        </div>
        <div>
          <dt>Client secret</dt>
          <dd>
            <input
              className="secret-value mono"
              readOnly
              value={shown.secret}
              aria-label="Client secret"
              onFocus={(e) => e.target.select()}
            />
          </dd>
        </div>
        <div>
          <dt>Token endpoint</dt>
          <dd className="mono">{tokenUrl}</dd>
        </div>
      </dl>
      <div className="secret-row">
        <CopyButton text={shown.secret} label="Copy secret" />
        <DoneButton onClick={onDismiss} />
      </div>
    </div>
  );
}

export function ClientsPage() {
  const [clients, setClients] = useState<ApiClient[]>([]);
  const [name, setName] = useState('');
  // What a trace needs (send, poll, download) unless the user chooses otherwise.
  const [scopes, setScopes] = useState<Scope[]>([...TRACE_SCOPES]);
  const [shown, setShown] = useState<Shown | null>(null);
  const load = useAction(async () => setClients(await listClients()));
  useEffect(() => void load.run(), []);

  const create = useAction(async () => {
    const { client_secret, ...client } = await createClient({ name: name.trim(), scopes });
    setClients((list) => [...list, client]);
    setShown({ clientId: client.client_id, secret: client_secret, rotated: false });
    setName('');
  });
  const rotate = useAction(async (id: string) => {
    const { client_secret } = await rotateClientSecret(id);
    setShown({ clientId: id, secret: client_secret, rotated: true });
  });
  const revoke = useAction(async (id: string) => {
    await revokeClient(id);
    setClients((list) => list.filter((c) => c.client_id !== id));
    if (shown?.clientId === id) setShown(null);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };

  return (
    <>
      <PageHeader
        title="API clients"
        lead="Credentials for your own programs: exchange the client ID and secret for an access token (client_credentials grant) and call the API as this account."
      />
      {shown && <Credentials shown={shown} onDismiss={() => setShown(null)} />}
      <Card title="New client">
        <form className="form-grid" onSubmit={submit}>
          <label className="field">
            <span>Client name</span>
            <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <CheckList
            legend="Scopes"
            options={SCOPES.map(({ scope, help }) => ({
              value: scope,
              label: (
                <span>
                  <span className="mono">{scope}</span> <small className="muted">— {help}</small>
                </span>
              ),
            }))}
            selected={scopes}
            onChange={setScopes}
          />
          <p className="muted" id="scope-hint">
            {scopes.length === 0
              ? 'Choose at least one scope.'
              : TRACE_SCOPES.every((s) => scopes.includes(s))
                ? 'read and write are what a trace needs: send a property or a list, poll it, download it.'
                : `Without ${TRACE_SCOPES.filter((s) => !scopes.includes(s)).join(' and ')} this client cannot ${
                    scopes.includes('write') ? 'poll results or download batches' : 'trace a property or upload a list'
                  }.`}
          </p>
          <SubmitButton label="Create client" disabled={create.busy || scopes.length === 0} />
        </form>
        <ErrorNotice error={create.error} />
      </Card>
      <Card title="Clients of this account">
        <ErrorNotice error={load.error ?? rotate.error ?? revoke.error} />
        <DataTable
          columns={['Name', 'Client ID', 'Scopes', 'Grants', 'Created', { label: 'Actions', hidden: true }]}
          rows={clients.length}
          busy={load.busy}
          empty="No clients yet."
        >
          {clients.map((c) => (
            <tr key={c.client_id}>
              <td>{c.name}</td>
              <td className="mono">{c.client_id}</td>
              <td>
                {c.scopes.map((s) => (
                  <Badge key={s} tone="info">
                    {s}
                  </Badge>
                ))}
              </td>
              <td className="muted">{c.grant_types.join(', ').replace(/_/g, ' ')}</td>
              <td className="nowrap">{when(c.created_at)}</td>
              <td className="actions-cell">
                <div className="row-actions">
                  {!c.public && (
                    <button
                      type="button"
                      className="button secondary small"
                      aria-label={`Rotate secret of ${c.name}`}
                      onClick={() => void rotate.run(c.client_id)}
                    >
                      Rotate secret
                    </button>
                  )}
                  <ConfirmButton
                    label={`Revoke ${c.name}`}
                    text="Revoke"
                    confirmLabel="Revoke for good"
                    small
                    onConfirm={() => void revoke.run(c.client_id)}
                  />
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      </Card>
    </>
  );
}
