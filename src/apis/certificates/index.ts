/** The certificates.<domain>/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { certificateSigningRequestResource } from './v1/certificatesigningrequest.js';

export const certificatesResources: readonly ResourceFactory[] = [certificateSigningRequestResource];
