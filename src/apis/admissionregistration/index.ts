/** The admissionregistration.<domain>/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { mutatingWebhookConfigurationResource } from './v1/mutatingwebhookconfiguration.js';
import { validatingWebhookConfigurationResource } from './v1/validatingwebhookconfiguration.js';

export const admissionregistrationResources: readonly ResourceFactory[] = [mutatingWebhookConfigurationResource, validatingWebhookConfigurationResource];
