import type { Problem } from './problem';
import { PROBLEM_BASE } from './problem';

const BY_STATUS: Record<number, [slug: string, title: string]> = {
  400: ['bad-request', 'Bad request'],
  401: ['unauthorized', 'Authentication required'],
  403: ['forbidden', 'Forbidden'],
  404: ['not-found', 'Not found'],
  405: ['method-not-allowed', 'Method not allowed'],
  409: ['conflict', 'Conflict with the current state'],
  413: ['payload-too-large', 'Request body too large'],
  415: ['unsupported-media-type', 'Unsupported media type'],
  422: ['unprocessable', 'Unprocessable request'],
  429: ['rate-limited', 'Too many requests'],
  500: ['internal-error', 'Internal server error'],
  503: ['unavailable', 'Service unavailable'],
};

/** A problem for a status that no code in this service described more precisely. */
export function problemForStatus(status: number, detail: string, instance?: string): Problem {
  const [slug, title] = BY_STATUS[status] ?? (status >= 500 ? BY_STATUS[500] : BY_STATUS[400]);
  return { type: `${PROBLEM_BASE}${slug}`, title, status, detail, ...(instance ? { instance } : {}) };
}
