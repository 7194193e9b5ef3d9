/** /version: the build this server reports, in the shape clients parse for skew checks. */
import { arch, platform } from 'node:os';

/** The Kubernetes minor release whose API this server serves (see the README). */
export const SERVED_RELEASE = { major: '1', minor: '25' } as const;

export function versionInfo(packageVersion: string): Record<string, string> {
  return {
    major: SERVED_RELEASE.major,
    minor: SERVED_RELEASE.minor,
    gitVersion: `v${SERVED_RELEASE.major}.${SERVED_RELEASE.minor}.0+orch-apiserver.${packageVersion}`,
    gitCommit: '',
    gitTreeState: '',
    buildDate: '',
    goVersion: `node${process.versions.node}`,
    compiler: 'node',
    platform: `${platform()}/${arch() === 'x64' ? 'amd64' : arch()}`,
  };
}
