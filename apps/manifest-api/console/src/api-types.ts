// The API as the console uses it: what it reads from /api and what it sends. Written for the browser (no server
// code in the bundle); src/app/console/console-api.conformance.ts holds these types to manifest-api's own views
// and DTOs at compile time, so a change there that the console would trip over fails the type check.

export type FieldValue = string | string[] | boolean | null;
export type DeliveryMode = 'test' | 'production';
export type PublishPolicy = 'moderation' | 'draft' | 'publish';

export interface FieldError {
  field: string;
  message: string;
}

/** RFC 9457 problem details, as every /api error answers. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

export interface Session {
  workspace: { id: string; name: string; createdAt: string };
  token: { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null };
}

export interface SecretState {
  set: boolean;
  setAt: string | null;
}

export interface Goal {
  id: string;
  workspaceId: string;
  version: number;
  name: string;
  sourceLang: string;
  channel: 'http_address';
  recipientUrl: string | null;
  deliveryMode: DeliveryMode;
  secondLanguageEnabled: boolean;
  secondLanguage: string | null;
  sendImmediately: boolean;
  publishPolicy: PublishPolicy | null;
  fieldDefaults: Record<string, FieldValue>;
  ownerEmail: string | null;
  secret: SecretState;
  verification: { verified: boolean; verifiedAt: string | null };
  createdAt: string;
  updatedAt: string;
}

export interface NewGoal {
  name: string;
  sourceLang: string;
}

/** PATCH /api/goals/{id}: an absent key stays unchanged, null clears. */
export interface GoalPatch {
  recipientUrl?: string | null;
  deliveryMode?: DeliveryMode;
  sendImmediately?: boolean;
  secondLanguageEnabled?: boolean;
  secondLanguage?: string | null;
  publishPolicy?: PublishPolicy | null;
  fieldDefaults?: Record<string, FieldValue>;
  ownerEmail?: string | null;
}

export interface ReceiverField {
  key: string;
  label: string;
  type: string;
  required?: boolean;
  multiple?: boolean;
  options?: { value: string; label: string }[];
}

export interface GoalContract {
  contract: {
    origin: 'receiver' | 'manual';
    version: number;
    sectionTypes: string[];
    blockTypes: string[];
    fields: ReceiverField[];
    establishedAt: string;
    updatedAt: string;
  } | null;
  capabilities: { kind: string; name: string; lastSource: string; inContract: boolean; firstReportedAt: string; lastReportedAt: string }[];
  reports: { source: string; firstReportedAt: string; reportedAt: string; sectionTypes: string[]; blockTypes: string[]; fields: ReceiverField[] }[];
}

export type ResultState =
  | 'received' | 'needs_approval' | 'awaiting_approval' | 'queued' | 'rejected'
  | 'delivering' | 'retry_scheduled' | 'retry_requested' | 'delivered' | 'failed';

/** One page of a list (`GET /goals`, `GET /goals/{id}/results`, …): `nextCursor` is null on the last page. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface ResultSummary {
  id: string;
  goalId: string;
  revision: number;
  workflowExecution: string;
  parentExecution: string | null;
  title: string | null;
  fieldValues: Record<string, FieldValue>;
  state: {
    status: ResultState;
    revision: number;
    reason: string | null;
    missingFields: string[];
    deliveryId: string | null;
    nextAttemptAt: string | null;
    lastError: { status: number | null; outcome: string; errorClass: string | null; errorMessage: string | null; attemptedAt: string } | null;
    approvedRevision: number | null;
    updatedAt: string;
  };
  createdAt: string;
  updatedAt: string;
}

export interface Attempt {
  deliveryId: string;
  revision: number;
  attempt: number;
  targetHost: string;
  status: number | null;
  durationMs: number;
  outcome: string;
  errorClass: string | null;
  errorMessage: string | null;
  attemptedAt: string;
  endedAt: string;
  nextAttemptAt: string | null;
  final: boolean;
  /** The receiver's answer: headers and the first 4 KiB of the body, as received (shown as text, never as HTML). */
  response: { headers: Record<string, string>; body: string; bodyEncoding: 'utf-8' | 'base64'; truncated: boolean } | null;
}

export interface Result extends ResultSummary {
  attempts: Attempt[];
}

export interface Revision {
  revision: number;
  workflowExecution: string;
  parentExecution: string | null;
  textOnlyChange: boolean;
  newArticles: string[];
  title: string | null;
  /** Set when the receiver answered 409 and this revision re-sent that one's content. */
  resendOf: number | null;
  createdAt: string;
}

export interface SendTestReport {
  outcome: string;
  sent: boolean;
  request: { url: string; headers: Record<string, string>; body: string } | null;
  response: { status: number; headers: Record<string, string | string[]>; body: string; truncated: boolean } | null;
  durationMs: number;
  errorClass: string | null;
  errorMessage: string | null;
  rule: string | null;
  address: string | null;
  verified: boolean;
}

/** A delivery with no automatic attempt left (GET /api/failed-deliveries). */
export interface FailedDelivery {
  resultId: string;
  goalId: string;
  goalName: string;
  title: string | null;
  revision: number;
  deliveryId: string;
  failedAt: string;
  reason: string | null;
  lastError: ResultSummary['state']['lastError'];
}

export interface FailedFilter {
  goalId?: string;
  since?: string;
  errorClass?: string;
}

/** A bulk recovery (POST /api/recoveries) and its progress. */
export interface Recovery {
  id: string;
  goalId: string | null;
  since: string;
  errorClass: string | null;
  count: number;
  remaining: number;
  progress: { delivered: number; failed: number; pending: number };
  done: boolean;
  createdAt: string;
}
