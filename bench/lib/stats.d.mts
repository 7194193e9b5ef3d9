// Types of stats.mjs, for the TypeScript smoke test that imports it.
export function median(values: readonly number[]): number;
export function percentile(values: readonly number[], p: number): number;
export function summarize(values: readonly number[]): { median: number; min: number; max: number; rounds: number };
export function formatNumber(n: number | undefined | null): string;
export function formatRatio(value: number, baseline: number): string;
export function formatTable(columns: readonly { title: string; align?: 'left' | 'right' }[], rows: readonly (readonly string[])[]): string;
