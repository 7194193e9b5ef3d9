/**
 * The `legacy` log format: one line per event with a fixed subset of its fields, as Kubernetes'
 * EventString writes it (Go's %q quoting; groups as a quoted, comma-joined list of quoted names).
 */
import type { AuditEvent } from './types.js';

/** Go's %q for the text audit lines carry (JSON escaping agrees for printable text). */
function q(s: string): string {
  return JSON.stringify(s);
}

function groupList(groups: readonly string[]): string {
  return groups.map(q).join(',');
}

export function legacyLine(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (ev.user.username) {
    username = ev.user.username;
    if (ev.user.groups?.length) groups = groupList(ev.user.groups);
  }
  let asUser = '<self>';
  let asGroups = '<lookup>';
  if (ev.impersonatedUser) {
    asUser = ev.impersonatedUser.username ?? '';
    if (ev.impersonatedUser.groups) asGroups = groupList(ev.impersonatedUser.groups);
  }
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code) : '<deferred>';
  const ip = ev.sourceIPs?.[0] ?? '<unknown>';
  return (
    `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ip)} method=${q(ev.verb)} user=${q(username)} ` +
    `groups=${q(groups)} as=${q(asUser)} asgroups=${q(asGroups)} user-agent=${q(ev.userAgent ?? '')} namespace=${q(namespace)} uri=${q(ev.requestURI)} response="${response}"`
  );
}

/** Go's RFC3339Nano of a MicroTime text: trailing zeros of the fraction dropped, no dot when it is zero. */
function rfc3339Nano(microTime: string): string {
  return microTime.replace(/(\.\d*?)0+Z$/, '$1Z').replace(/\.Z$/, 'Z');
}
