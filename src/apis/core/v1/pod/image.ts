/**
 * Container image references (`[domain/]path[:tag][@digest]`), read just far enough to know the tag:
 * the default pull policy is Always for `:latest` or no tag at all, IfNotPresent otherwise.
 */
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);

/** The tag an image runs with: its own, `latest` when it has neither tag nor digest, '' when unparseable. */
export function imageTag(image: string): string {
  const m = REFERENCE.exec(image);
  if (!m) return '';
  const tag = m[2] ?? '';
  const digest = m[3] ?? '';
  return !tag && !digest ? 'latest' : tag;
}

export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  return imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}
