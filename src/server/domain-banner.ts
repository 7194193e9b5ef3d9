/**
 * The start-up line that says which clients fit the server's API domain, so that nobody learns it
 * from a failing kubectl: k8s.io is for Kubernetes' clients, any other domain for its own.
 */
export function domainBanner(domain: string): string {
  if (domain === 'k8s.io') {
    return "API domain k8s.io: Kubernetes' own names, for kubectl, client-go, @kubernetes/client-node, Helm and other Kubernetes clients";
  }
  return (
    `API domain ${domain}: groups, media types and annotations are named *.${domain}, for clients written for ${domain} ` +
    `(plain HTTP and JSON, this package's library). kubectl and other Kubernetes clients need Kubernetes' names: start with --api-domain=k8s.io for them`
  );
}
