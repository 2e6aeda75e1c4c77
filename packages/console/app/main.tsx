/** Entry: reads /console/config.json, finishes or starts the sign-in, then renders the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { completeSignIn, initAuth, signIn, SignInError, type ConsoleConfig } from './auth.ts';
import { RouterProvider } from './router.tsx';
import './styles.css';

const root = createRoot(document.getElementById('root')!);
const base = import.meta.env.BASE_URL;

function Failure({ message }: { message: string }) {
  return (
    <main className="signin-failure">
      <h1>Sign-in did not complete</h1>
      <p role="alert">{message}</p>
      <a className="button primary" href={`${base}batches`}>
        Sign in again
      </a>
    </main>
  );
}

function SignedOut() {
  return (
    <main className="signin-failure">
      <h1>Signed out</h1>
      <p>You are signed out of the Skip-trace console.</p>
      <a className="button primary" href={`${base}batches`}>
        Sign in again
      </a>
    </main>
  );
}

async function boot() {
  if (location.pathname === `${base}signed-out`) {
    root.render(<SignedOut />);
    return;
  }
  const config = (await (await fetch(`${base}config.json`)).json()) as ConsoleConfig;
  await initAuth(config);
  const inApp = location.pathname.slice(base.length - 1);
  if (inApp === '/callback') {
    const returnTo = await completeSignIn();
    history.replaceState(null, '', `${base.replace(/\/$/, '')}${returnTo.startsWith('/') ? returnTo : '/batches'}`);
  } else {
    await signIn(inApp === '/' || inApp === '' ? '/batches' : inApp + location.search);
  }
  root.render(
    <StrictMode>
      <RouterProvider>
        <App />
      </RouterProvider>
    </StrictMode>,
  );
}

boot().catch((err: unknown) => {
  const message = err instanceof SignInError || err instanceof Error ? err.message : String(err);
  root.render(<Failure message={message} />);
});
