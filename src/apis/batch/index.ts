/** The batch/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { cronJobResource } from './v1/cronjob.js';
import { jobResource } from './v1/job.js';

export const batchResources: readonly ResourceFactory[] = [cronJobResource, jobResource];
