/** Timestamps as audit events write them (UTC), from epoch milliseconds with a fraction. */

function parts(epochMs: number): { base: string; micros: number } {
  const whole = Math.floor(epochMs);
  const micros = Math.round((epochMs - whole) * 1000) + (whole % 1000) * 1000;
  const base = new Date(whole - (whole % 1000)).toISOString().slice(0, 19);
  return { base, micros: Math.min(micros, 999_999) };
}

/** metav1.MicroTime: `2006-01-02T15:04:05.000000Z`, always six fraction digits. */
export function microTime(epochMs: number): string {
  const { base, micros } = parts(epochMs);
  return `${base}.${String(micros).padStart(6, '0')}Z`;
}
