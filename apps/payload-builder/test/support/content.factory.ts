import { randomUUID } from 'node:crypto';
import type {
  ContractChangedPayload, DeliveryAttemptedPayload, GoalChangedPayload, ResultRevisedPayload,
} from '@owd/events';
import type { ResultRevisionInput } from '@owd/payload';

export function newResultId(): string {
  return `res_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/** An English article with a `content` and a `timeline` section, and Ukrainian content for the second language. */
export function revisionContent(resultId: string, patch: Partial<ResultRevisionInput> = {}): ResultRevisionInput {
  return {
    resultId,
    revision: 1,
    mode: 'article',
    workflowExecution: resultId,
    executedAt: '2026-11-21T11:00:00+01:00',
    title: 'Harbour strike ends',
    lead: 'Dock workers return after three days.',
    body: 'The strike ended on **Friday**.\n\n## What changes\n\nShips are unloaded again.',
    sourceLang: 'en',
    locales: {
      uk: { title: 'Страйк у порту завершився', lead: 'Докери повертаються.', body: 'Страйк завершився в **пʼятницю**.' },
    },
    steps: { edit: { text: 'The strike ended.', model: 'gpt-4.1', tokens: 120, cost: 0.001 } },
    articles: [{
      id: 'art_1', title: 'Strike over', url: 'https://news.example.com/strike', source: 'Example News',
      publishedAt: '2026-11-21T08:00:00Z', lang: 'en',
    }],
    clusters: [{ id: 'clu_1', description: 'Harbour strike', keywords: ['harbour', 'strike'], version: 1 }],
    sections: [
      { key: 'intro', type: 'content', blocks: [{ type: 'paragraph', text: 'The strike ended on Friday.' }] },
      { key: 'history', type: 'timeline', blocks: [{ type: 'paragraph', text: 'Tuesday: the strike began.' }] },
    ],
    image: null,
    aiModel: 'gpt-4.1',
    tokensUsed: 120,
    cost: 0.001,
    ...patch,
  };
}

export function goalSnapshot(goalId: string, workspaceId: string, patch: Partial<GoalChangedPayload> = {}): GoalChangedPayload {
  return {
    goalId, workspaceId, version: 1, deleted: false, name: 'Harbour news', sourceLang: 'en',
    recipientUrl: 'https://receiver.example.com/hook', deliveryMode: 'production', secretCiphertext: null,
    sendImmediately: true, secondLanguageEnabled: false, secondLanguage: null, publishPolicy: 'draft', fieldDefaults: {},
    ...patch,
  };
}

export function contractSnapshot(goalId: string, workspaceId: string, patch: Partial<ContractChangedPayload> = {}): ContractChangedPayload {
  return {
    goalId, workspaceId, version: 1, origin: 'receiver', sectionTypes: ['content'], blockTypes: ['paragraph', 'heading'],
    fields: [], ...patch,
  };
}

export function revised(
  goalId: string, workspaceId: string, content: ResultRevisionInput, patch: Partial<ResultRevisedPayload> = {},
): ResultRevisedPayload {
  return {
    resultId: content.resultId, goalId, workspaceId, revision: content.revision, textOnlyChange: false,
    content: { ...content }, ...patch,
  };
}

export function conflictAttempt(
  requested: { deliveryId: string; resultId: string; goalId: string; revision: number }, conflictRevision: number,
): DeliveryAttemptedPayload {
  return {
    deliveryId: requested.deliveryId, resultId: requested.resultId, goalId: requested.goalId, revision: requested.revision,
    workspaceId: null, series: 1, attempt: 1, targetHost: 'receiver.example.com', status: 409, durationMs: 12, outcome: 'conflict', errorClass: null,
    errorMessage: null, attemptedAt: new Date().toISOString(), nextAttemptAt: null, conflictRevision, final: true,
  };
}
