/**
 * Kubernetes' human duration (apimachinery's HumanDuration): two or three significant figures,
 * coarser as the span grows ("45s", "3m2s", "25m", "5h3m", "2d3h", "400d", "3y12d"). Clocks a
 * second apart still read "0s"; a span further in the future reads "<invalid>".
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export function humanDuration(ms: number): string {
  // Go truncates toward zero when it turns a duration into whole seconds.
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) {
    const d = days % 365;
    return d === 0 ? `${years}y` : `${years}y${d}d`;
  }
  return `${years}y`;
}

/**
 * The age of a timestamp as kubectl's AGE column shows it: `<unknown>` when the timestamp is
 * missing or unreadable.
 */
export function humanAge(timestamp: string | null | undefined, now: Date): string {
  if (!timestamp) return '<unknown>';
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return '<unknown>';
  return humanDuration(now.getTime() - at);
}
