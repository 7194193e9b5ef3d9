/** The `apiserver_flowcontrol_*` collectors (and apiserver_dropped_requests_total), registered on the server's registry. */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { FlowControlMetrics } from '../flowcontrol/index.js';

const PL = 'priority_level';
const FS = 'flow_schema';
const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30];

export function createFlowControlMetrics(registry: Registry): FlowControlMetrics {
  const registers = [registry];
  const name = (n: string): string => `apiserver_flowcontrol_${n}`;
  return {
    rejected: new Counter({ name: name('rejected_requests_total'), help: 'Number of requests rejected by API Priority and Fairness subsystem', labelNames: [PL, FS, 'reason'], registers }),
    dispatched: new Counter({ name: name('dispatched_requests_total'), help: 'Number of requests executed by API Priority and Fairness subsystem', labelNames: [PL, FS], registers }),
    inQueue: new Gauge({ name: name('current_inqueue_requests'), help: 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', labelNames: [PL, FS], registers }),
    executing: new Gauge({
      name: name('current_executing_requests'),
      help: 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
      labelNames: [PL, FS],
      registers,
    }),
    seatsInUse: new Gauge({
      name: name('request_concurrency_in_use'),
      help: 'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
      labelNames: [PL, FS],
      registers,
    }),
    concurrencyLimit: new Gauge({ name: name('request_concurrency_limit'), help: 'Shared concurrency limit in the API Priority and Fairness subsystem', labelNames: [PL], registers }),
    queueLength: new Histogram({
      name: name('request_queue_length_after_enqueue'),
      help: 'Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued',
      labelNames: [PL, FS],
      buckets: [0, 10, 25, 50, 100, 250, 500, 1000],
      registers,
    }),
    waitDuration: new Histogram({ name: name('request_wait_duration_seconds'), help: 'Length of time a request spent waiting in its queue', labelNames: [PL, FS, 'execute'], buckets: DURATION_BUCKETS, registers }),
    executionDuration: new Histogram({
      name: name('request_execution_seconds'),
      help: 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
      labelNames: [PL, FS, 'type'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    currentR: new Gauge({ name: name('current_r'), help: 'R(time of last change)', labelNames: [PL], registers }),
    dispatchR: new Gauge({ name: name('dispatch_r'), help: 'R(time of last dispatch)', labelNames: [PL], registers }),
    workEstimatedSeats: new Histogram({
      name: name('work_estimated_seats'),
      help: 'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness',
      labelNames: [PL, FS],
      buckets: [1, 2, 4, 10],
      registers,
    }),
    dropped: new Counter({
      name: 'apiserver_dropped_requests_total',
      help: 'Number of requests dropped with \'Try again later\' response',
      labelNames: ['request_kind'],
      registers,
    }),
  };
}
