/** The network client (kubeconfig, TLS, tokens, exec credential plugins) and the in-process client. */
export { InProcessClient, SYSTEM_USER, type ResourceClient } from './in-process-client.js';
export { ApiError, NetworkClient, clientFromKubeconfig, type Reply, type RequestOptions, type WatchEvent } from './network-client.js';
export { KubeconfigError, loadKubeconfig, parseKubeconfig, execGroup, type ClientConfig, type ClusterConfig, type ExecConfig, type InteractiveMode, type UserConfig } from './kubeconfig.js';
export { ExecCredentialProvider, ExecPluginError, execInfoEnvName, parseExecOutput, resolveCommand, type ExecCredentials } from './exec-credential.js';
