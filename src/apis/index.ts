/** Every built-in kind, group by group, in the order discovery lists them. */
import type { ResourceFactory } from '../registry/define-resource.js';
import { coreV1Resources } from './core/v1/index.js';

export const builtinResources: readonly ResourceFactory[] = [...coreV1Resources];
