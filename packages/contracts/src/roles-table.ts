import { leastRoleOf, API_ROUTES, type RouteSpec } from './routes/index.ts';
import { ROLES, roleAtLeast } from './members.ts';

/** Which roles may call a route: yes/no per role, owner first. */
export const rolesOf = (route: RouteSpec) => ROLES.map((role) => roleAtLeast(role, leastRoleOf(route)));

/**
 * The route × role table of docs/oauth.md (between its roles-table markers), generated from
 * the routes: `node packages/gateway/scripts/roles-table.ts --write` rewrites it, and the
 * gateway's roles test fails when it differs from this.
 */
export function rolesTable(routes: readonly RouteSpec[] = API_ROUTES): string {
  const rows = routes.map((route) => [
    `\`${route.method.toUpperCase()} ${route.path}\``,
    route.operationId,
    route.scope,
    ...rolesOf(route).map((ok) => (ok ? 'yes' : '—')),
  ]);
  const head = ['route', 'operation', 'scope', ...ROLES];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
