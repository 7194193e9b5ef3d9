/** Reading audit events back: the log file's JSON lines, and waiting for a request's events to land. */
import { existsSync, readFileSync } from 'node:fs';

export interface LoggedEvent {
  kind: string;
  apiVersion: string;
  level: string;
  auditID: string;
  stage: string;
  requestURI: string;
  verb: string;
  user: { username?: string; groups?: string[] };
  impersonatedUser?: { username?: string; groups?: string[] };
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: Record<string, string>;
  responseStatus?: { code: number; message?: string; reason?: string; status?: string };
  requestObject?: any;
  responseObject?: any;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

export function readEvents(path: string): LoggedEvent[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LoggedEvent);
}

/**
 * The events of one audit ID once its last stage is in: the response can reach the client a moment
 * before the filter writes ResponseComplete, so this polls (bounded) rather than reading once.
 */
export async function eventsOf(read: () => LoggedEvent[], auditID: string, lastStage = 'ResponseComplete', timeoutMs = 10_000): Promise<LoggedEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = read().filter((e) => e.auditID === auditID);
    if (events.some((e) => e.stage === lastStage)) return events;
    if (Date.now() > deadline) throw new Error(`no ${lastStage} event for audit ID ${auditID}; got stages ${JSON.stringify(events.map((e) => e.stage))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function auditIdOf(headers: Record<string, string | string[] | undefined>): string {
  const id = headers['audit-id'];
  if (typeof id !== 'string' || !id) throw new Error('the response has no Audit-ID header');
  return id;
}
