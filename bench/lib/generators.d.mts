// Types of the parts of generators.mjs that the TypeScript tests import.
export function parseWrk(out: string): { rps: number; total: number; non2xx: number; errors: string | undefined };
export function parseH2load(out: string): { rps: number; total: number; non2xx: number; failed: number };
export function cpuMicros(pid: number): number;
export const GENERATOR_LIMIT: number;
