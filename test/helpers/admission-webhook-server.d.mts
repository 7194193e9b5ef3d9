export interface WebhookServerOptions {
  host?: string;
  port?: number;
  cert: string;
  key: string;
  /** PEM CA bundle client certificates must chain to; with it the server requires a client certificate. */
  clientCa?: string;
}

export interface WebhookServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

export function startWebhookServer(opts: WebhookServerOptions): Promise<WebhookServer>;
