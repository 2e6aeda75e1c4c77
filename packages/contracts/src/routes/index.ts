import { batchRoutes } from './batches.routes.ts';
import { auditRoutes } from './audit.routes.ts';
import { clientRoutes } from './clients.routes.ts';
import { memberRoutes } from './members.routes.ts';
import type { RouteSpec } from './route.ts';
import { skiptraceRoutes } from './skiptrace.routes.ts';
import { usageRoutes } from './usage.routes.ts';
import { webhookRoutes } from './webhooks.routes.ts';

export * from './route.ts';
export * from './params.ts';
export * as skiptraceApi from './skiptrace.routes.ts';
export * as batchesApi from './batches.routes.ts';
export * as webhooksApi from './webhooks.routes.ts';
export * as clientsApi from './clients.routes.ts';
export * as membersApi from './members.routes.ts';
export * as usageApi from './usage.routes.ts';
export * as auditApi from './audit.routes.ts';

/** Groups of the reference, in order. */
export const API_TAGS = [
  { name: 'Skip trace', description: 'One property at a time: trace, list, poll, erase.' },
  {
    name: 'Batches',
    description: 'Up to a million properties per upload, traced in the background; export in input order.',
  },
  { name: 'Webhooks', description: 'Signed event deliveries (Standard Webhooks), their log, replay and recovery.' },
  { name: 'API clients', description: "The account's OAuth clients for server-to-server access." },
  { name: 'Members', description: "The account's users, their roles, invitations and password resets." },
  { name: 'Usage', description: 'What the account used, per day or API client; monthly quotas.' },
  { name: 'Audit log', description: 'Who did what to the account, when and from where.' },
];

/** Every route of /api/v1 (except GET /openapi.json and the docs page, which need no token). */
export const API_ROUTES: readonly RouteSpec[] = [
  ...skiptraceRoutes,
  ...batchRoutes,
  ...webhookRoutes,
  ...clientRoutes,
  ...memberRoutes,
  ...usageRoutes,
  ...auditRoutes,
];
