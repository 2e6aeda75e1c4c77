/**
 * Headless Chromium (Debian's /usr/bin/chromium, installed by scripts/ensure-chromium.sh)
 * driven by playwright-core, and the user's part of the authorization-code flow.
 */
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** Fills the login form by its labels and submits it. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Opens the authorization URL in a fresh browser context, signs in, answers the consent
 * page and returns the URL the browser was finally redirected to (the client's callback).
 */
export async function authorizeInBrowser(
  browser: Browser,
  authorizationUrl: URL,
  user: { email: string; password: string },
  decision: 'Allow' | 'Deny' = 'Allow',
): Promise<URL> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(authorizationUrl.href);
    await signIn(page, user.email, user.password);
    await page.getByRole('button', { name: decision }).click();
    await page.waitForURL(/\/callback\?/);
    return new URL(page.url());
  } finally {
    await context.close();
  }
}
