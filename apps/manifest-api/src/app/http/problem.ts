import { HttpException } from '@nestjs/common';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const PROBLEM_BASE = 'https://owd.dev/problems/';

export interface FieldError {
  field: string;
  message: string;
}

/** RFC 9457 problem details; `errors` lists field-level reasons, extra members carry machine-readable context. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

export interface ProblemInit {
  /** Last part of the type URI, e.g. `validation-error`. */
  slug: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
  extensions?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Thrown anywhere in the API; the filter writes it as application/problem+json. */
export class ProblemException extends HttpException {
  readonly headers: Record<string, string>;

  constructor(readonly init: ProblemInit) {
    super(init.detail, init.status);
    this.headers = init.headers ?? {};
  }

  toProblem(instance?: string): Problem {
    const { slug, title, status, detail, errors, extensions } = this.init;
    return {
      ...extensions,
      type: `${PROBLEM_BASE}${slug}`,
      title,
      status,
      detail,
      ...(instance ? { instance } : {}),
      ...(errors ? { errors } : {}),
    };
  }
}

export const problems = {
  validation: (errors: FieldError[], detail = 'The request body or parameters are invalid.') =>
    new ProblemException({ slug: 'validation-error', title: 'Invalid request', status: 400, detail, errors }),
  malformedJson: (detail: string) =>
    new ProblemException({ slug: 'malformed-json', title: 'Malformed JSON', status: 400, detail }),
  unauthorized: (detail: string) =>
    new ProblemException({
      slug: 'unauthorized', title: 'Authentication required', status: 401, detail,
      headers: { 'WWW-Authenticate': 'Bearer realm="manifest-api"' },
    }),
  forbidden: (detail: string) => new ProblemException({ slug: 'forbidden', title: 'Forbidden', status: 403, detail }),
  notFound: (what: string) =>
    new ProblemException({ slug: 'not-found', title: 'Not found', status: 404, detail: `${what} was not found.` }),
  conflict: (slug: string, detail: string, extensions?: Record<string, unknown>) =>
    new ProblemException({ slug, title: 'Conflict with the current state', status: 409, detail, extensions }),
  unprocessable: (slug: string, title: string, detail: string, errors: FieldError[], extensions?: Record<string, unknown>) =>
    new ProblemException({ slug, title, status: 422, detail, errors, extensions }),
  tooManyRequests: (retryAfterSeconds: number) =>
    new ProblemException({
      slug: 'rate-limited', title: 'Too many requests', status: 429,
      detail: `The rate limit of this API token is exhausted; retry in ${retryAfterSeconds} s.`,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    }),
};
