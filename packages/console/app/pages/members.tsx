/**
 * Members of the account: invite someone (a one-time link shown once, to give them
 * yourself: no mail is sent), change a role, reset a password (a one-time link), remove a
 * member or withdraw an invitation. Owners and admins only (the API refuses the others).
 */
import { useEffect, useState, type FormEvent } from 'react';
import {
  changeMemberRole,
  inviteMember,
  listMembers,
  removeMember,
  resetMemberPassword,
  type Member,
  type MemberLink,
  type Role,
} from '../api.ts';
import { tokenClaims } from '../auth.ts';
import {
  Badge,
  Card,
  ConfirmButton,
  CopyButton,
  DataTable,
  DoneButton,
  ErrorNotice,
  PageHeader,
  SubmitButton,
  useAction,
} from '../components/ui.tsx';
import { when } from '../format.ts';

export const ROLES: { role: Role; help: string }[] = [
  { role: 'owner', help: 'everything, including other owners' },
  { role: 'admin', help: 'members, API clients, webhooks, audit log' },
  { role: 'member', help: 'trace, upload, download' },
  { role: 'viewer', help: 'read only' },
];

function LinkNotice({ shown, onDismiss }: { shown: { link: MemberLink; reset: boolean }; onDismiss: () => void }) {
  const { link, reset } = shown;
  return (
    <div className="notice secret" role="status">
      <p>
        <strong>{reset ? 'Password reset link' : 'Invitation link'}</strong> for <strong>{link.member.email}</strong> —
        give it to them yourself (no mail is sent). It works once, until {when(link.expires_at)}, and will not be shown
        again.
      </p>
      <div className="secret-row">
        <input
          className="secret-value mono"
          readOnly
          value={link.link}
          aria-label={reset ? 'Password reset link' : 'Invitation link'}
          onFocus={(e) => e.target.select()}
        />
        <CopyButton text={link.link} label="Copy link" />
        <DoneButton onClick={onDismiss} />
      </div>
    </div>
  );
}

export function MembersPage() {
  const [members, setMembers] = useState<Member[]>([]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [shown, setShown] = useState<{ link: MemberLink; reset: boolean } | null>(null);
  const me = tokenClaims();
  const roles = ROLES.filter((r) => r.role !== 'owner' || me.role === 'owner');
  const load = useAction(async () => setMembers(await listMembers()));
  useEffect(() => void load.run(), []);

  const invite = useAction(async () => {
    const link = await inviteMember({ email: email.trim(), role });
    setMembers((list) => [...list.filter((m) => m.email !== link.member.email), link.member]);
    setShown({ link, reset: false });
    setEmail('');
  });
  const change = useAction(async (id: string, next: Role) => {
    const updated = await changeMemberRole(id, next);
    setMembers((list) => list.map((m) => (m.id === id ? updated : m)));
  });
  const reset = useAction(async (id: string) => setShown({ link: await resetMemberPassword(id), reset: true }));
  const remove = useAction(async (id: string) => {
    await removeMember(id);
    setMembers((list) => list.filter((m) => m.id !== id));
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void invite.run();
  };

  return (
    <>
      <PageHeader
        title="Members"
        lead="Who signs in to this account and what they may do. Invite someone with a one-time link you hand them yourself."
      />
      {shown && <LinkNotice shown={shown} onDismiss={() => setShown(null)} />}
      <Card title="Invite a member">
        <form className="form-grid" onSubmit={submit}>
          <label className="field">
            <span>Email</span>
            <input type="email" required maxLength={320} value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <label className="field">
            <span>Role</span>
            <select aria-label="Role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {roles.map((r) => (
                <option key={r.role} value={r.role}>
                  {r.role} — {r.help}
                </option>
              ))}
            </select>
          </label>
          <SubmitButton label="Invite" disabled={invite.busy || !email.trim()} />
        </form>
        <ErrorNotice error={invite.error} />
      </Card>
      <Card title="Members of this account">
        <ErrorNotice error={load.error ?? change.error ?? reset.error ?? remove.error} />
        <DataTable
          columns={['Email', 'Role', 'Status', 'Since', { label: 'Actions', hidden: true }]}
          rows={members.length}
          busy={load.busy}
          empty="No members yet."
        >
          {members.map((m) => (
            <tr key={m.id}>
              <td>
                {m.email}
                {m.id === me.sub && <small className="muted"> (you)</small>}
              </td>
              <td>
                {m.status === 'active' ? (
                  <select
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    disabled={change.busy}
                    onChange={(e) => void change.run(m.id, e.target.value as Role)}
                  >
                    {ROLES.map((r) => (
                      <option key={r.role} value={r.role}>
                        {r.role}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span className="mono">{m.role}</span>
                )}
              </td>
              <td>
                <Badge tone={m.status === 'active' ? 'good' : 'info'}>{m.status}</Badge>
              </td>
              <td className="nowrap">
                {m.status === 'invited' ? `until ${when(m.invitation_expires_at ?? '')}` : when(m.created_at)}
              </td>
              <td className="actions-cell">
                <div className="row-actions">
                  {m.status === 'active' && (
                    <button
                      type="button"
                      className="button secondary small"
                      aria-label={`Reset the password of ${m.email}`}
                      onClick={() => void reset.run(m.id)}
                    >
                      Reset password
                    </button>
                  )}
                  <ConfirmButton
                    label={m.status === 'active' ? `Remove ${m.email}` : `Withdraw the invitation of ${m.email}`}
                    text={m.status === 'active' ? 'Remove' : 'Withdraw'}
                    confirmLabel={m.status === 'active' ? 'Remove for good' : 'Withdraw for good'}
                    small
                    onConfirm={() => void remove.run(m.id)}
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
