/**
 * The debug dumps of API Priority and Fairness, as kube-apiserver serves them (unlisted, plain
 * text, authorized like any non-resource GET): one row per priority level, per queue, or per
 * waiting request, the columns separated by `,` and aligned with spaces. Levels come in name order.
 */
import type { DigestedConfiguration, LevelState } from './configuration.js';

export const DEBUG_DUMP_PATHS = {
  priorityLevels: '/debug/api_priority_and_fairness/dump_priority_levels',
  queues: '/debug/api_priority_and_fairness/dump_queues',
  requests: '/debug/api_priority_and_fairness/dump_requests',
} as const;

/** Aligns cells as Go's tabwriter (min width 8, padding 1, spaces) does for these tables. */
function align(rows: readonly string[][]): string {
  const widths: number[] = [];
  for (const cells of rows) cells.slice(0, -1).forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, Math.max(c.length + 1, 8))));
  return rows.map((cells) => cells.map((c, i) => (i < cells.length - 1 ? c.padEnd(widths[i] as number) : c)).join('') + '\n').join('');
}

/** A row: every cell but the last ends with a comma. */
const row = (...cells: string[]): string[] => cells.map((c, i) => (i < cells.length - 1 ? `${c},` : c));
const none = (name: string, columns: number): string[] => row(name, ...Array<string>(columns - 1).fill('<none>'));
const seatSeconds = (r: number): string => `${r.toFixed(8)}ss`;

function levelsByName(config: DigestedConfiguration): [string, LevelState][] {
  return [...config.levels].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function priorityLevels(config: DigestedConfiguration): string {
  const rows = [row('PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests')];
  for (const [name, state] of levelsByName(config)) {
    if (!state.queues) {
      rows.push(none(name, 6));
      continue;
    }
    const d = state.queues.dump();
    const active = d.queues.filter((q) => q.pending > 0).length;
    rows.push(row(name, String(active), String(state.queues.isIdle()), String(state.quiescing), String(d.waiting), String(d.executing)));
  }
  return align(rows);
}

function queues(config: DigestedConfiguration): string {
  const rows = [row('PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum')];
  for (const [name, state] of levelsByName(config)) {
    if (!state.queues) {
      rows.push(none(name, 9));
      continue;
    }
    for (const q of state.queues.dump().queues) {
      rows.push(row(name, String(q.index), String(q.pending), String(q.executing), String(q.seatsInUse), seatSeconds(q.nextDispatchR), String(q.pending), String(q.pending), seatSeconds(q.totalWork)));
    }
  }
  return align(rows);
}

function requests(config: DigestedConfiguration, details: boolean): string {
  const header = row('PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime', 'InitialSeats', 'FinalSeats', 'AdditionalLatency');
  const rows = [details ? [...header.slice(0, -1), `${header.at(-1)},`, ...row('UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource')] : header];
  for (const [name, state] of levelsByName(config)) {
    if (!state.queues) continue;
    for (const q of state.queues.dump().queues) {
      q.requests.forEach((r, i) => {
        const base = row(name, r.flowSchema, String(q.index), String(i), r.distinguisher, r.arrivedAt.toISOString(), '1', '0', '0s');
        if (!details) return rows.push(base);
        const info = r.info;
        const resource = info?.isResourceRequest ? info : undefined;
        const groupVersion = resource ? (resource.apiGroup ? `${resource.apiGroup}/${resource.apiVersion}` : resource.apiVersion) : '';
        rows.push([...base.slice(0, -1), `${base.at(-1)},`, ...row(r.userName ?? '', info?.verb ?? '', info?.path ?? '', resource?.namespace ?? '', resource?.name ?? '', groupVersion, resource?.resource ?? '', resource?.subresource ?? '')]);
      });
    }
  }
  return align(rows);
}

/** The dump at `path` (one of DEBUG_DUMP_PATHS), or undefined for another path. */
export function debugDump(config: DigestedConfiguration, path: string, query: URLSearchParams): string | undefined {
  switch (path) {
    case DEBUG_DUMP_PATHS.priorityLevels:
      return priorityLevels(config);
    case DEBUG_DUMP_PATHS.queues:
      return queues(config);
    case DEBUG_DUMP_PATHS.requests:
      return requests(config, (query.get('includeRequestDetails') ?? '').length > 0);
    default:
      return undefined;
  }
}
