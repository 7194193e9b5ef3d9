/**
 * The schedule check of a CronJob: Kubernetes parses `spec.schedule` with the standard five-field
 * cron parser of robfig/cron (v3) and reports that parser's error text, so clients see the same
 * messages here. Only parsing: nothing is scheduled. Also Go's time.ParseDuration for `@every`.
 */

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DAYS_OF_MONTH: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = {
  min: 1,
  max: 12,
  names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
};
const DAYS_OF_WEEK: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };
const FIELDS = [MINUTES, HOURS, DAYS_OF_MONTH, MONTHS, DAYS_OF_WEEK];
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Go's strconv.Atoi on an unsigned field value, with robfig's wording. */
function parseNumber(expr: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(expr)) return `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`;
  const n = Number.parseInt(expr, 10);
  if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 63 - 1) return `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`;
  if (n < 0) return `negative number (${n}) not allowed: ${expr}`;
  return n;
}

function parseNumberOrName(expr: string, bounds: Bounds): number | string {
  const named = bounds.names?.[expr.toLowerCase()];
  return named ?? parseNumber(expr);
}

/** One comma-separated part of a field: `*`, `n`, `a-b`, each optionally `/step`. The error text, or undefined. */
function rangeProblem(expr: string, bounds: Bounds): string | undefined {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] as string).split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    const low = parseNumberOrName(lowAndHigh[0] as string, bounds);
    if (typeof low === 'string') return low;
    start = low;
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) {
      const high = parseNumberOrName(lowAndHigh[1] as string, bounds);
      if (typeof high === 'string') return high;
      end = high;
    } else return `too many hyphens: ${expr}`;
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const parsed = parseNumber(rangeAndStep[1] as string);
    if (typeof parsed === 'string') return parsed;
    step = parsed;
    // "n/step" means "n-max/step".
    if (lowAndHigh.length === 1) end = bounds.max;
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (start < bounds.min) return `beginning of range (${start}) below minimum (${bounds.min}): ${expr}`;
  if (end > bounds.max) return `end of range (${end}) above maximum (${bounds.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  if (step === 0) return `step of range should be a positive number: ${expr}`;
  return undefined;
}

const DURATION_UNITS = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);

/** Go's time.ParseDuration: the error text, or undefined for a valid duration. */
export function goDurationProblem(orig: string): string | undefined {
  const invalid = `time: invalid duration ${JSON.stringify(orig)}`;
  let s = orig.replace(/^[-+]/, '');
  if (s === '0') return undefined;
  if (s === '') return invalid;
  while (s !== '') {
    const num = /^([0-9]*)(\.([0-9]*))?/.exec(s) as RegExpExecArray;
    if (!num[1] && !num[3]) return invalid;
    s = s.slice(num[0].length);
    const unit = /^[^0-9.]*/.exec(s)?.[0] ?? '';
    if (!unit) return `time: missing unit in duration ${JSON.stringify(orig)}`;
    if (!DURATION_UNITS.has(unit)) return `time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(orig)}`;
    s = s.slice(unit.length);
  }
  return undefined;
}

/**
 * Whether `zone` names a time zone Go's time.LoadLocation finds (an IANA name, or UTC). The error
 * text (Go's) or undefined.
 */
export function timeZoneProblem(zone: string): string | undefined {
  if (zone === '' || zone === 'UTC' || zone === 'Local') return undefined;
  if (zone.includes('..') || zone.startsWith('/') || zone.includes('\\')) return 'time: invalid location name';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return undefined;
  } catch {
    return `unknown time zone ${zone}`;
  }
}

/** The parser's error for a standard cron spec (robfig/cron ParseStandard), or undefined when it parses. */
export function cronScheduleProblem(spec: string): string | undefined {
  if (spec.length === 0) return 'empty spec string';
  let rest = spec;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const space = rest.indexOf(' ');
    const zone = rest.slice(rest.indexOf('=') + 1, space < 0 ? undefined : space);
    const problem = space < 0 ? `unknown time zone ${zone}` : timeZoneProblem(zone);
    if (problem) return `provided bad location ${zone}: ${problem}`;
    rest = rest.slice(space).trim();
  }
  if (rest.startsWith('@')) {
    if (DESCRIPTORS.has(rest)) return undefined;
    if (rest.startsWith('@every ')) {
      const problem = goDurationProblem(rest.slice('@every '.length));
      return problem ? `failed to parse duration ${rest}: ${problem}` : undefined;
    }
    return `unrecognized descriptor: ${rest}`;
  }
  const fields = rest.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== FIELDS.length) return `expected exactly ${FIELDS.length} fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (let i = 0; i < FIELDS.length; i++) {
    for (const part of (fields[i] as string).split(',').filter((p) => p !== '')) {
      const problem = rangeProblem(part, FIELDS[i] as Bounds);
      if (problem) return problem;
    }
  }
  return undefined;
}
