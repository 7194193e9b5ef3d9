/**
 * Ends every run with the list of skipped tests and the reasons the suites printed for them, so a
 * CI log says at a glance which components were missing (kubectl, etcd, the Python client...)
 * rather than burying one "skipping ..." line among thousands.
 */
import { relative } from 'node:path';
import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';

export default class SkipSummaryReporter implements Reporter {
  private readonly reasons = new Set<string>();

  onUserConsoleLog(log: UserConsoleLog): void {
    for (const line of log.content.split('\n')) {
      if (/\bskip/i.test(line)) this.reasons.add(line.trim());
    }
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skipped: string[] = [];
    for (const m of modules) {
      for (const test of m.children.allTests()) {
        if (test.result().state === 'skipped') skipped.push(`  ${relative(process.cwd(), m.moduleId)} > ${test.fullName}`);
      }
    }
    console.log(`\nSkipped tests: ${skipped.length}`);
    if (skipped.length === 0) return;
    for (const line of skipped) console.log(line);
    console.log(this.reasons.size > 0 ? 'Reasons the suites gave:' : 'No suite printed a reason.');
    for (const reason of this.reasons) console.log(`  ${reason}`);
  }
}
