/** The policy/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { podDisruptionBudgetResource } from './v1/poddisruptionbudget.js';

export const policyResources: readonly ResourceFactory[] = [podDisruptionBudgetResource];
