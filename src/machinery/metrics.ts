/**
 * The metrics the request path records, as interfaces every layer may import. The composition root
 * backs them with Prometheus collectors (src/server/metrics.ts); tests may record into plain objects.
 */
export type MetricLabels = Readonly<Record<string, string | number>>;

export interface CounterMetric {
  inc(labels: MetricLabels, value?: number): void;
}

export interface GaugeMetric {
  inc(labels: MetricLabels, value?: number): void;
  inc(): void;
  dec(labels: MetricLabels, value?: number): void;
  dec(): void;
  set(labels: MetricLabels, value: number): void;
}

export interface HistogramMetric {
  observe(labels: MetricLabels, value: number): void;
}

export interface ApiMetrics {
  /** apiserver_request_total: one per request, with the response code. */
  readonly requests: CounterMetric;
  /** apiserver_request_duration_seconds: short-running requests only. */
  readonly latency: HistogramMetric;
  readonly inflight: GaugeMetric;
  readonly longRunning: GaugeMetric;
  readonly watchEvents: CounterMetric;
  /** 1 for each deprecated group/version/resource that was requested since start. */
  readonly deprecatedApis: GaugeMetric;
}
