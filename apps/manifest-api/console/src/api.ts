import type {
  FailedDelivery, FailedFilter, FieldValue, Goal, GoalContract, GoalPatch, NewGoal, Page, Problem, Recovery, Result, ResultSummary, Revision,
  SecretState, SendTestReport, Session,
} from './api-types';

/** An API answer that was not a success, with its problem document (RFC 9457) when it carried one. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly problem: Problem | null, message: string) {
    super(message);
  }

  static fromAnswer(status: number, body: unknown): ApiError {
    const problem = isProblem(body) ? body : null;
    const message = problem ? (problem.detail || problem.title) : `The API answered ${status}.`;
    return new ApiError(status, problem, message);
  }

  /** `errors[].message` by `errors[].field` (e.g. `recipientUrl`, `values.desk`). */
  fieldErrors(): Map<string, string> {
    return new Map((this.problem?.errors ?? []).map((e) => [e.field, e.message]));
  }

  /** The last part of the problem type, e.g. `address-refused`. */
  get kind(): string | undefined {
    return this.problem?.type.split('/').pop();
  }
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && typeof (body as Problem).type === 'string' && typeof (body as Problem).status === 'number';
}

const segment = encodeURIComponent;

/** The console's client of /api: the API token as a Bearer header, JSON in and out, problem+json as ApiError. */
export class Api {
  constructor(private readonly token: string, private readonly onUnauthorized: (error: ApiError) => void = () => undefined) {}

  me = () => this.call<Session>('GET', '/me');

  /** Every goal of the workspace (a workspace has few), page after page. */
  goals = async (): Promise<Goal[]> => {
    const goals: Goal[] = [];
    for (let cursor: string | null = ''; cursor !== null;) {
      const page: Page<Goal> = await this.call<Page<Goal>>('GET', `/goals?limit=100${cursor ? `&cursor=${segment(cursor)}` : ''}`);
      goals.push(...page.data);
      cursor = page.nextCursor;
    }
    return goals;
  };
  goal = (goalId: string) => this.call<Goal>('GET', `/goals/${segment(goalId)}`);
  createGoal = (goal: NewGoal) => this.call<Goal>('POST', '/goals', goal);
  updateGoal = (goalId: string, patch: GoalPatch) => this.call<Goal>('PATCH', `/goals/${segment(goalId)}`, patch);
  setSecret = (goalId: string, secret: string) => this.call<SecretState>('PUT', `/goals/${segment(goalId)}/secret`, { secret });
  removeSecret = (goalId: string) => this.call<void>('DELETE', `/goals/${segment(goalId)}/secret`);
  sendTest = (goalId: string, url?: string) => this.call<SendTestReport>('POST', `/goals/${segment(goalId)}/send-test`, url === undefined ? {} : { url });
  contract = (goalId: string) => this.call<GoalContract>('GET', `/goals/${segment(goalId)}/contract`);

  /** The newest `limit` results of the goal (the first page). */
  results = async (goalId: string, limit = 50): Promise<ResultSummary[]> =>
    (await this.call<Page<ResultSummary>>('GET', `/goals/${segment(goalId)}/results?limit=${limit}`)).data;
  result = (resultId: string) => this.call<Result>('GET', `/results/${segment(resultId)}`);
  revisions = (resultId: string) => this.call<Revision[]>('GET', `/results/${segment(resultId)}/revisions`);
  approve = (resultId: string) => this.call<Result>('POST', `/results/${segment(resultId)}/approve`, {});
  retry = (resultId: string) => this.call<Result>('POST', `/results/${segment(resultId)}/retry`, {});
  setFields = (resultId: string, values: Record<string, FieldValue>) => this.call<Result>('PUT', `/results/${segment(resultId)}/fields`, { values });

  failedDeliveries = (filter: FailedFilter, cursor?: string) => {
    const query = new URLSearchParams(Object.entries({ ...filter, cursor }).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
    return this.call<Page<FailedDelivery>>('GET', `/failed-deliveries?${query.toString()}`);
  };
  recover = (filter: FailedFilter & { since: string }) => this.call<Recovery>('POST', '/recoveries', filter);
  recovery = (recoveryId: string) => this.call<Recovery>('GET', `/recoveries/${segment(recoveryId)}`);

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json, application/problem+json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`/api${path}`, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store', credentials: 'omit', redirect: 'error',
      });
    } catch {
      throw new ApiError(0, null, 'The API cannot be reached. Check the connection and try again.');
    }
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    if (!res.ok) {
      const error = ApiError.fromAnswer(res.status, parsed);
      if (res.status === 401) this.onUnauthorized(error);
      throw error;
    }
    return parsed as T;
  }
}
