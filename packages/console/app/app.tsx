/**
 * The signed-in shell: navigation on the left, the current page on the right; on a narrow
 * screen a bar on top whose Menu button opens the navigation (closed again on navigating or
 * Escape).
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { signOut, tokenClaims } from './auth.ts';
import { BatchPage } from './pages/batch.tsx';
import { BatchesPage } from './pages/batches.tsx';
import { AuditPage } from './pages/audit.tsx';
import { ClientsPage } from './pages/clients.tsx';
import { HistoryPage } from './pages/history.tsx';
import { MembersPage } from './pages/members.tsx';
import { TracePage } from './pages/trace.tsx';
import { UsagePage } from './pages/usage.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { Link, useRoute } from './router.tsx';

interface Route {
  path: string;
  label: string;
  /** For owners and admins: hidden from the others' navigation (the API refuses them anyway). */
  admin?: boolean;
}
const NAV: Route[] = [
  { path: '/batches', label: 'Batches' },
  { path: '/trace', label: 'Trace one property' },
  { path: '/history', label: 'History' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/clients', label: 'API clients', admin: true },
  { path: '/members', label: 'Members', admin: true },
  { path: '/audit', label: 'Audit log', admin: true },
  { path: '/usage', label: 'Usage' },
];

function page(path: string) {
  const batch = /^\/batches\/(\d+)$/.exec(path);
  if (batch) return <BatchPage id={batch[1]!} key={batch[1]} />;
  if (path === '/trace') return <TracePage />;
  if (path === '/history') return <HistoryPage />;
  if (path === '/webhooks') return <WebhooksPage />;
  if (path === '/clients') return <ClientsPage />;
  if (path === '/usage') return <UsagePage />;
  if (path === '/members') return <MembersPage />;
  if (path === '/audit') return <AuditPage />;
  return <BatchesPage />;
}

export function App() {
  const { path } = useRoute();
  const main = useRef<HTMLElement>(null);
  const claims = tokenClaims();
  // A token without a role (before roles) is shown everything; the API decides.
  const isAdmin = !claims.role || claims.role === 'owner' || claims.role === 'admin';
  const section = NAV.find((r) => path === r.path || path.startsWith(`${r.path}/`)) ?? NAV[0]!;
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  /** Escape anywhere in the open menu closes it and gives the focus back to its button. */
  const closeOnEscape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !menuOpen) return;
    setMenuOpen(false);
    menuButton.current?.focus();
  };
  useEffect(() => {
    document.title = `${section.label} · Skip-trace console`;
    setMenuOpen(false);
    main.current?.focus({ preventScroll: true });
  }, [path, section.label]);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar" data-menu={menuOpen ? 'open' : 'closed'} onKeyDown={closeOnEscape}>
        <div className="sidebar-top">
          <div className="brand">
            <span className="logo" aria-hidden="true">
              ◆
            </span>
            <span>Skip-trace</span>
          </div>
          <button
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="console-menu"
            ref={menuButton}
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <span className="menu-icon" aria-hidden="true" />
            Menu
          </button>
        </div>
        <div id="console-menu" className="sidebar-menu">
          {/* Choosing a page closes the menu, also the page already shown. */}
          <nav aria-label="Console" onClick={() => setMenuOpen(false)}>
            <ul>
              {NAV.filter((r) => !r.admin || isAdmin).map((r) => (
                <li key={r.path}>
                  <Link to={r.path} aria-current={r === section ? 'page' : undefined}>
                    {r.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="sidebar-foot">
            <a href="/api/v1/docs">API reference</a>
            <div className="account" title={claims.sub}>
              <span className="muted">Account</span>
              <span className="mono">{claims.account_id}</span>
              {claims.role && <span className="muted">Role: {claims.role}</span>}
            </div>
            <button type="button" className="button ghost small" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        </div>
      </aside>
      <main id="main" ref={main} tabIndex={-1}>
        {page(path)}
      </main>
    </div>
  );
}
