/**
 * @skiptrace/usage: usage counters per account, API client and UTC day (counted in the
 * statements that store work: usage-sql.ts), monthly quotas checked at the door (quota.ts)
 * and the `/api/v1/usage` router.
 */
export { phonesIn, USAGE_COLUMNS, usageUpsertSql, UTC_DAY_SQL } from './usage-sql.ts';
export { createUsage, monthOf, type QuotaStatus, type UsageRow, type UsageStore } from './usage.repository.ts';
export { createQuotaGuard, QUOTA_WARNING_SHARE, type QuotaGuard, type QuotaGuardDeps } from './quota.ts';
export { createUsageRouter, type UsageRouterDeps } from './usage.router.ts';
export { QuotaUpdate } from '@skiptrace/contracts';
