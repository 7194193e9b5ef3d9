/**
 * The `apiserver_flowcontrol_*` metrics flow control records, named and labelled as Kubernetes
 * 1.25 names them. The composition root backs them with Prometheus collectors
 * (src/server/flowcontrol-metrics.ts); unit tests use `noFlowControlMetrics`.
 */
import type { CounterMetric, GaugeMetric, HistogramMetric } from '../machinery/metrics.js';

export interface FlowControlMetrics {
  /** rejected_requests_total{priority_level, flow_schema, reason}: queue-full, concurrency-limit, time-out, cancelled. */
  readonly rejected: CounterMetric;
  /** dispatched_requests_total{priority_level, flow_schema}. */
  readonly dispatched: CounterMetric;
  /** current_inqueue_requests{priority_level, flow_schema}. */
  readonly inQueue: GaugeMetric;
  /** current_executing_requests{priority_level, flow_schema}. */
  readonly executing: GaugeMetric;
  /** request_concurrency_in_use{priority_level, flow_schema}: seats occupied. */
  readonly seatsInUse: GaugeMetric;
  /** request_concurrency_limit{priority_level}: the level's ACV. */
  readonly concurrencyLimit: GaugeMetric;
  /** request_queue_length_after_enqueue{priority_level, flow_schema}. */
  readonly queueLength: HistogramMetric;
  /** request_wait_duration_seconds{priority_level, flow_schema, execute}. */
  readonly waitDuration: HistogramMetric;
  /** request_execution_seconds{priority_level, flow_schema, type}: regular, or watch (its start only). */
  readonly executionDuration: HistogramMetric;
  /** current_r{priority_level}: the level's virtual time, in seat-seconds. */
  readonly currentR: GaugeMetric;
  /** dispatch_r{priority_level}: the virtual time of the last dispatch. */
  readonly dispatchR: GaugeMetric;
  /** work_estimated_seats{priority_level, flow_schema}. */
  readonly workEstimatedSeats: HistogramMetric;
  /** apiserver_dropped_requests_total{request_kind}: readOnly or mutating requests answered 429. */
  readonly dropped: CounterMetric;
}

const counter: CounterMetric = { inc: () => undefined };
const gauge: GaugeMetric = { inc: () => undefined, dec: () => undefined, set: () => undefined };
const histogram: HistogramMetric = { observe: () => undefined };

/** Metrics that record nothing. */
export const noFlowControlMetrics: FlowControlMetrics = {
  rejected: counter,
  dispatched: counter,
  inQueue: gauge,
  executing: gauge,
  seatsInUse: gauge,
  concurrencyLimit: gauge,
  queueLength: histogram,
  waitDuration: histogram,
  executionDuration: histogram,
  currentR: gauge,
  dispatchR: gauge,
  workEstimatedSeats: histogram,
  dropped: counter,
};
