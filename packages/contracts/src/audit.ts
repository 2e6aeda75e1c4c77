import { z } from 'zod';

/**
 * The audit log (`GET /api/v1/audit`): administrative and data-export actions with who did
 * them (actor, client), when, from which address, and on what (target). An entry never
 * holds the data an action touched — no address, name or phone of a result — so erasing a
 * result keeps its audit entry without keeping the erased data.
 */
export const AUDIT_ACTIONS = [
  'user.signed_in',
  'client.created',
  'client.secret_rotated',
  'client.revoked',
  'member.invited',
  'member.invitation_accepted',
  'member.role_changed',
  'member.removed',
  'member.password_reset_issued',
  'member.password_reset',
  'result.erased',
  'batch.erased',
  'export.downloaded',
  'quota.changed',
  'access.denied',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEntry = z
  .object({
    id: z.string().describe('Increasing id (int64 as a string)'),
    at: z.string().describe('ISO 8601'),
    action: z.enum(AUDIT_ACTIONS),
    actor: z
      .object({
        type: z.enum(['user', 'client', 'system']),
        id: z.string().nullable().describe('User id (usr_…) or client id; null for the system'),
        email: z.string().nullable().describe("The user's email when the actor is a user"),
      })
      .describe('Who did it'),
    client_id: z.string().nullable().describe('The OAuth client the actor used (the console is skiptrace-console)'),
    source_address: z.string().nullable().describe('IP address the request came from'),
    target: z
      .object({ type: z.string(), id: z.string().nullable() })
      .nullable()
      .describe('What it was done to: member, invitation, client, property, batch, quota'),
    details: z
      .record(z.string(), z.unknown())
      .describe('Ids, roles, formats and counts; never a name, address or phone'),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

const instant = (what: string) =>
  z.iso
    .datetime({ offset: true, message: `${what} must be an ISO 8601 date-time` })
    .optional()
    .describe(`${what === 'from' ? 'Entries at or after' : 'Entries before'} this ISO 8601 instant`);

export const AuditQuery = z
  .object({
    actor: z.string().max(320).optional().describe('User id, client id or user email'),
    action: z.enum(AUDIT_ACTIONS).optional(),
    from: instant('from'),
    to: instant('to'),
    limit: z.coerce
      .number()
      .int('limit must be an integer')
      .min(1, 'limit must be at least 1')
      .max(500, 'limit must be at most 500')
      .default(100),
    cursor: z.string().max(200).optional(),
  })
  .meta({ id: 'AuditQuery' });
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditList = z.object({ data: z.array(AuditEntry) }).meta({ id: 'AuditList' });
