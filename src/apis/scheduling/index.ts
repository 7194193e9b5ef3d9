/** The scheduling.<domain>/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { priorityClassResource } from './v1/priorityclass.js';

export const schedulingResources: readonly ResourceFactory[] = [priorityClassResource];
