/**
 * Pod columns as kubectl shows them: READY (ready/total containers), STATUS (the phase, or the
 * reason a container or init container gives), RESTARTS (with how long ago the last one was),
 * AGE; IP, NODE, NOMINATED NODE and READINESS GATES for -o wide. Finished pods' rows carry a
 * Completed condition.
 */
import { humanAge } from '../../../../machinery/duration.js';
import { age, ageColumn, column, defineTable, nameColumn, type TableRowCondition } from '../../../../registry/define-resource.js';
import type { KubeObject } from '../../../../schema/index.js';

interface ContainerStatus {
  name?: string;
  ready?: boolean;
  restartCount?: number;
  started?: boolean;
  state?: ContainerState;
  lastState?: ContainerState;
}

interface ContainerState {
  waiting?: { reason?: string };
  running?: Record<string, unknown>;
  terminated?: { exitCode?: number; signal?: number; reason?: string; finishedAt?: string | null };
}

type PodShape = KubeObject & {
  spec?: {
    containers?: { name?: string }[];
    initContainers?: { name?: string; restartPolicy?: string }[];
    nodeName?: string;
    readinessGates?: { conditionType?: string }[];
  };
  status?: {
    phase?: string;
    reason?: string;
    nominatedNodeName?: string;
    podIP?: string;
    podIPs?: { ip?: string }[];
    conditions?: { type?: string; status?: string; reason?: string }[];
    containerStatuses?: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
  };
};

/** The reason kubelets give a pod whose node stopped answering. */
const NODE_UNREACHABLE_REASON = 'NodeLost';

function isTerminalPhase(phase: string | undefined): boolean {
  return phase === 'Succeeded' || phase === 'Failed';
}

function hasCondition(pod: PodShape, type: string, status = 'True'): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === status);
}

interface PodSummary {
  ready: number;
  total: number;
  reason: string;
  restarts: number;
  lastRestart: number;
}

function laterRestart(current: number, c: ContainerStatus): number {
  const at = c.lastState?.terminated?.finishedAt ? Date.parse(c.lastState.terminated.finishedAt) : NaN;
  return Number.isNaN(at) ? current : Math.max(current, at);
}

function summarize(pod: PodShape): PodSummary {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  const sidecars = new Set((spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const out: PodSummary = { ready: 0, total: (spec.containers ?? []).length + sidecars.size, reason: status.reason || status.phase || '', restarts: 0, lastRestart: 0 };
  if ((status.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) out.reason = 'SchedulingGated';

  let sidecarRestarts = 0;
  let sidecarLastRestart = 0;
  let initializing = false;
  const inits = status.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i] as ContainerStatus;
    const sidecar = sidecars.has(c.name);
    out.restarts += c.restartCount ?? 0;
    out.lastRestart = laterRestart(out.lastRestart, c);
    if (sidecar) {
      sidecarRestarts += c.restartCount ?? 0;
      sidecarLastRestart = laterRestart(sidecarLastRestart, c);
    }
    const terminated = c.state?.terminated;
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (sidecar && c.started) {
      if (c.ready) out.ready++;
      continue;
    }
    if (terminated) {
      out.reason = terminated.reason ? `Init:${terminated.reason}` : terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode ?? 0}`;
    } else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') {
      out.reason = `Init:${c.state.waiting.reason}`;
    } else {
      out.reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || hasCondition(pod, 'Initialized')) {
    out.restarts = sidecarRestarts;
    out.lastRestart = sidecarLastRestart;
    let hasRunning = false;
    const containers = status.containerStatuses ?? [];
    for (let i = containers.length - 1; i >= 0; i--) {
      const c = containers[i] as ContainerStatus;
      out.restarts += c.restartCount ?? 0;
      out.lastRestart = laterRestart(out.lastRestart, c);
      const terminated = c.state?.terminated;
      if (c.state?.waiting?.reason) out.reason = c.state.waiting.reason;
      else if (terminated?.reason) out.reason = terminated.reason;
      else if (terminated) out.reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode ?? 0}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        out.ready++;
      }
    }
    if (out.reason === 'Completed' && hasRunning) out.reason = hasCondition(pod, 'Ready') ? 'Running' : 'NotReady';
  }

  if (pod.metadata.deletionTimestamp && status.reason === NODE_UNREACHABLE_REASON) out.reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && !isTerminalPhase(status.phase)) out.reason = 'Terminating';
  return out;
}

function readinessGates(pod: PodShape): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions = pod.status?.conditions ?? [];
  const passed = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${passed}/${gates.length}`;
}

const completed = (reason: string, message: string): TableRowCondition[] => [{ type: 'Completed', status: 'True', reason, message }];

export const podTable = defineTable<PodShape>({
  columns: [
    nameColumn,
    column('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    ageColumn,
    column('IP', 'The IP address of the pod', { priority: 1 }),
    column('Node', 'The node the pod is scheduled to', { priority: 1 }),
    column('Nominated Node', 'The node the scheduler nominated for the pod after preemption', { priority: 1 }),
    column('Readiness Gates', 'How many of the readiness gates are met', { priority: 1 }),
  ],
  cells: (pod, ctx) => {
    const s = summarize(pod);
    const restarts = s.restarts !== 0 && s.lastRestart > 0 ? `${s.restarts} (${humanAge(new Date(s.lastRestart).toISOString(), ctx.now)} ago)` : String(s.restarts);
    const ip = pod.status?.podIPs?.[0]?.ip || '<none>';
    return [
      pod.metadata.name ?? '',
      `${s.ready}/${s.total}`,
      s.reason,
      restarts,
      age(pod, ctx),
      ip,
      pod.spec?.nodeName || '<none>',
      pod.status?.nominatedNodeName || '<none>',
      readinessGates(pod),
    ];
  },
  conditions: (pod) => {
    if (pod.status?.phase === 'Succeeded') return completed('Succeeded', 'The pod has completed successfully.');
    if (pod.status?.phase === 'Failed') return completed('Failed', 'The pod failed.');
    return undefined;
  },
});
