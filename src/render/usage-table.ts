/**
 * What each model cost, as one table shared by the PR body, the progress comment and the job
 * summary. A missing price shows as unknown instead of a made-up figure.
 */
export interface UsageRow {
  role: string;
  model: string;
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  costUsd: number | null;
}

const number = (n: number) => n.toLocaleString('en-US');

export function formatUsd(cost: number | null): string {
  if (cost === null) return 'unknown price';
  return `$${cost < 0.01 && cost > 0 ? cost.toFixed(4) : cost.toFixed(2)}`;
}

export function totalCost(rows: UsageRow[]): number | null {
  let sum = 0;
  for (const row of rows) {
    if (row.requests === 0) continue;
    if (row.costUsd === null) return null;
    sum += row.costUsd;
  }
  return sum;
}

export function renderUsageTable(rows: UsageRow[]): string {
  const header = [
    '| role | model | requests | prompt tokens | cached | completion tokens | cost |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  const body = rows.map((r) => {
    const hit = r.promptTokens > 0 ? ` (${Math.round((r.cachedTokens / r.promptTokens) * 100)} %)` : '';
    return `| ${r.role} | \`${r.model}\` | ${number(r.requests)} | ${number(r.promptTokens)} | ${number(r.cachedTokens)}${hit} | ${number(r.completionTokens)} | ${formatUsd(r.costUsd)} |`;
  });
  return [...header, ...body, `| **total** | | | | | | **${formatUsd(totalCost(rows))}** |`].join('\n');
}
