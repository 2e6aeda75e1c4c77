/**
 * Server-rendered pages of the sign-in flow: login, consent and a plain error page. No
 * scripts; every value is HTML-escaped; labels are tied to inputs; errors are announced
 * (role="alert").
 */
export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1b1f24;margin:0}
main{max-width:24rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px #0002}
main{overflow-wrap:anywhere}@media (max-width:28rem){main{margin:1.5rem .75rem;padding:1.5rem}}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:1rem 0 .3rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid #8a939e;border-radius:4px}
button{margin-top:1.4rem;padding:.6rem 1.2rem;font-size:1rem;border-radius:4px;border:1px solid #0b5cad;cursor:pointer}
.primary{background:#0b5cad;color:#fff}.secondary{background:#fff;color:#0b5cad}
[role=alert]{background:#fdecea;border:1px solid #b3261e;color:#7a1a14;padding:.6rem;border-radius:4px}
ul{padding-left:1.2rem}:focus-visible{outline:3px solid #f0b400;outline-offset:2px}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export function loginPage(input: {
  uid: string;
  csrf: string;
  clientName: string;
  email?: string;
  error?: string;
}): string {
  const error = input.error ? `<p role="alert" id="login-error">${escapeHtml(input.error)}</p>` : '';
  const described = input.error ? ' aria-describedby="login-error"' : '';
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p>to continue to <strong>${escapeHtml(input.clientName)}</strong></p>${error}
<form method="post" action="/interaction/${escapeHtml(input.uid)}/login" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}"${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<button class="primary" type="submit">Sign in</button>
</form>`,
  );
}

const SCOPE_TEXT: Record<string, string> = {
  read: 'Read your skip-trace results (read)',
  write: 'Submit properties and delete records (write)',
  openid: 'Know who you are (openid)',
  offline_access: 'Stay connected while you are away (offline_access)',
};

export function consentPage(input: { uid: string; csrf: string; clientName: string; scopes: string[] }): string {
  const items = input.scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join('');
  return layout(
    'Authorize access',
    `<h1>Authorize ${escapeHtml(input.clientName)}</h1>
<p><strong>${escapeHtml(input.clientName)}</strong> asks for permission to:</p>
<ul>${items}</ul>
<form method="post" action="/interaction/${escapeHtml(input.uid)}/consent">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<button class="primary" type="submit" name="decision" value="allow">Allow</button>
<button class="secondary" type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function errorPage(input: { title: string; message: string }): string {
  return layout(
    input.title,
    `<h1>${escapeHtml(input.title)}</h1><p role="alert">${escapeHtml(input.message)}</p>
<p>Return to the application you came from and start again.</p>`,
  );
}

/** The page of a sign-in step a store outage stopped (answered 503 with Retry-After). */
export function unavailablePage(outage: { publicMessage: string; retryAfterSeconds: number }): string {
  return errorPage({
    title: 'Sign-in temporarily unavailable',
    message: `${outage.publicMessage}: try again in ${outage.retryAfterSeconds} seconds.`,
  });
}

/**
 * RP-initiated logout: the confirmation (around the provider's own form, which carries its
 * xsrf token) and the page shown when no post-logout redirect was asked for.
 */
export function logoutPage(input: { form: string }): string {
  return layout(
    'Sign out',
    `<h1>Sign out?</h1>
<p>You will be signed out of every application that uses this sign-in.</p>
${input.form}
<button class="primary" autofocus type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<button class="secondary" type="submit" form="op.logoutForm">Stay signed in</button>`,
  );
}

export function signedOutPage(): string {
  return layout('Signed out', `<h1>Signed out</h1><p>You are signed out. You can close this window.</p>`);
}

const LINK_TEXT = {
  invitation: {
    title: 'Join the team',
    lead: 'You were invited to the skip-trace console as',
    button: 'Set password and join',
  },
  password_reset: { title: 'Set a new password', lead: 'A new password for', button: 'Set new password' },
} as const;

/** The page of a member's one-time link: set a password (an invitation) or a new one (a reset). */
export function memberLinkPage(input: {
  kind: 'invitation' | 'password_reset';
  action: string;
  csrf: string;
  email: string;
  role?: string | null;
  error?: string;
}): string {
  const text = LINK_TEXT[input.kind];
  const error = input.error ? `<p role="alert" id="link-error">${escapeHtml(input.error)}</p>` : '';
  const described = input.error ? ' aria-describedby="link-error"' : '';
  const role = input.kind === 'invitation' && input.role ? ` (<strong>${escapeHtml(input.role)}</strong>)` : '';
  return layout(
    text.title,
    `<h1>${text.title}</h1>
<p>${text.lead} <strong>${escapeHtml(input.email)}</strong>${role}.</p>${error}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<input type="email" name="email" autocomplete="username" value="${escapeHtml(input.email)}" hidden readonly>
<label for="password">Password (8 characters or more)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required${described}>
<label for="confirm">Password again</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="8" required${described}>
<button class="primary" type="submit">${text.button}</button>
</form>`,
  );
}

/** After a link was used: where to sign in now. */
export function memberLinkDonePage(input: {
  kind: 'invitation' | 'password_reset';
  email: string;
  consoleUrl: string;
}): string {
  const done = input.kind === 'invitation' ? 'You joined the team.' : 'Your new password is set.';
  return layout(
    'Password set',
    `<h1>Password set</h1>
<p>${done} Sign in as <strong>${escapeHtml(input.email)}</strong> with your new password.</p>
<p><a href="${escapeHtml(input.consoleUrl)}/">Continue to the console</a></p>`,
  );
}
