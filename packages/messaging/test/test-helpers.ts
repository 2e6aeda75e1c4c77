import { randomUUID } from 'node:crypto';

/** A queue or topic name no other test (or test run) uses. */
export const unique = (label: string): string => `${label}-${randomUUID().slice(0, 8)}`;

/** Polls `condition` until it holds or the deadline passes; tests wait on this, never on sleeps. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  {
    timeoutMs = 10_000,
    intervalMs = 10,
    what = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A promise plus the function that resolves it, for handlers a test holds open. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
