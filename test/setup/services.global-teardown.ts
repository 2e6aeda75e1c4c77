/** Jest globalTeardown of the integration project: removes the containers the globalSetup started. */
import type { StartedServices } from '@skiptrace/testing';
import { STARTED } from './services.global-setup.ts';

export default async function teardown(): Promise<void> {
  const started = (globalThis as { [STARTED]?: StartedServices })[STARTED];
  if (!started) return;
  delete (globalThis as { [STARTED]?: StartedServices })[STARTED];
  await started.stop();
}
