import { formatCost, type RoleUsageSummary } from '../models/usage.js';
import { formatCount } from '../text/count.js';

/**
 * What each model cost, as one table shared by the PR body and the job summary. A missing price
 * shows as unknown instead of a made-up figure.
 */
const number = formatCount;

/** The sum of the roles' costs; unknown as soon as one role's price is. */
export function sumCost(rows: readonly RoleUsageSummary[]): number | null {
  let sum = 0;
  for (const row of rows) {
    if (row.costUsd === null) return null;
    sum += row.costUsd;
  }
  return sum;
}

export function renderUsageTable(rows: readonly RoleUsageSummary[]): string {
  if (rows.length === 0) return '_No model was called._';
  const header = [
    '| role | model | requests | prompt tokens | cached | completion tokens | cost |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  const body = rows.map((r) => {
    const hit = r.promptTokens > 0 ? ` (${Math.round(r.cacheHitRatio * 100)} %)` : '';
    const models = r.models.map((m) => `\`${m}\``).join(', ');
    return `| ${r.role} | ${models} | ${number(r.requests)} | ${number(r.promptTokens)} | ${number(r.cachedTokens)}${hit} | ${number(r.completionTokens)} | ${formatCost(r.costUsd)} |`;
  });
  return [...header, ...body, `| **total** | | | | | | **${formatCost(sumCost(rows))}** |`].join('\n');
}
