/** The authentication.<domain>/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { tokenReviewResource } from './v1/token-review.js';

export const authenticationResources: readonly ResourceFactory[] = [tokenReviewResource];
