/** The events.<domain>/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { eventsV1EventResource } from './v1/event.js';

export const eventsResources: readonly ResourceFactory[] = [eventsV1EventResource];
