/** The user's part of the authorization-code flow in headless Chromium. */
import type { Browser } from 'playwright-core';
import { signIn } from '@skiptrace/testing/browser';

export { launchBrowser, signIn } from '@skiptrace/testing/browser';

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
