import { z } from 'zod';
import { SCOPES, TRACE_SCOPES } from './oauth.ts';

/**
 * The account's API clients (`/api/v1/clients`): OAuth clients of the auth server that
 * get tokens with client_credentials. The secret is returned only on create and rotate.
 */
export const ApiClientCreate = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
    scopes: z
      .array(z.enum(SCOPES))
      .min(1, 'must name at least one scope')
      .default([...TRACE_SCOPES])
      .describe(
        'read: GET routes; write: traces, uploads and other changes; admin: API clients and webhook endpoints. ' +
          'Default `read write`: what a trace needs (send a property or a batch, poll it, download it)',
      ),
  })
  .strict()
  .meta({ id: 'ApiClientCreate' });
export type ApiClientCreate = z.infer<typeof ApiClientCreate>;

export const ApiClient = z
  .object({
    client_id: z.string(),
    name: z.string(),
    grant_types: z.array(z.string()).describe('client_credentials for API clients; the console is authorization_code'),
    scopes: z.array(z.string()),
    public: z.boolean().describe('A public client (PKCE, no secret) has nothing to rotate'),
    created_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'ApiClient' });
export type ApiClient = z.infer<typeof ApiClient>;

export const ApiClientWithSecret = ApiClient.extend({
  client_secret: z.string().describe('Shown only in this answer; stored as a hash'),
}).meta({ id: 'ApiClientWithSecret' });
export type ApiClientWithSecret = z.infer<typeof ApiClientWithSecret>;

export const ApiClientList = z.object({ data: z.array(ApiClient) }).meta({ id: 'ApiClientList' });
