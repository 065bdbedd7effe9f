import { RECEIVER_SOURCE, type NoticeFindings, type SourceMismatch, type StaleSource } from './findings';

export interface NoticeMailInput {
  goalId: string;
  goalName: string;
  ownerEmail: string;
  week: string;
  findings: NoticeFindings;
  /** Domain of NOTICE_FROM; names the Message-ID. */
  senderDomain: string;
}

export interface NoticeMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Deterministic per goal and week, so a resend after a crash mid-send is recognisable as the same message. */
  messageId: string;
}

interface Paragraph {
  lead: string;
  items: string[];
  advice: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

// The goal name is user input: no control characters (header folding tricks) and a bounded length.
const oneLine = (s: string) => s.replace(/\p{Cc}+/gu, ' ').trim().slice(0, 120);

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export function noticeMessageId(goalId: string, week: string, senderDomain: string): string {
  return `<notice.${goalId}.${week}@${senderDomain}>`;
}

/** How the notice names the source of a report: the receiver, or the plugin by the source it reported. */
const sourceLabel = (source: string) => (source === RECEIVER_SOURCE ? 'receiver' : `plugin "${oneLine(source).slice(0, 40)}"`);

const sourceName = (source: string) => `the ${sourceLabel(source)}`;

/** Joins the names of several sources: `the receiver, the plugin "a" and the plugin "b"`. */
function names(sources: readonly string[], name: (source: string) => string = sourceName): string {
  const all = sources.map(name);
  return all.length === 1 ? all[0] : `${all.slice(0, -1).join(', ')} and ${all[all.length - 1]}`;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "1 day", "2 days". */
const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

type FindingKind = keyof NoticeFindings;

const KINDS: readonly FindingKind[] = ['mismatch', 'drift', 'stale'];

/** The sources a finding is about, in the order the notice lists them. */
function sourcesOf(findings: NoticeFindings, kind: FindingKind): string[] {
  if (kind === 'mismatch') return (findings.mismatch ?? []).map((m) => m.source);
  if (kind === 'stale') return (findings.stale?.sources ?? []).map((s) => s.source);
  return [RECEIVER_SOURCE];
}

function alone(kind: FindingKind, sources: string[]): string {
  const one = sources.length === 1;
  if (kind === 'mismatch') return `the contract uses types ${names(sources)} ${one ? 'does' : 'do'} not report`;
  if (kind === 'stale') return `${names(sources)} stopped reporting ${one ? 'its' : 'their'} capabilities`;
  return 'the receiver reports capabilities the contract does not have';
}

function together(kind: FindingKind, sources: string[]): string {
  if (kind === 'stale') return `${names(sources, sourceLabel)} not reporting`;
  return kind === 'mismatch' ? 'contract mismatch' : 'new receiver capabilities';
}

function subjectOf(name: string, findings: NoticeFindings): string {
  const kinds = KINDS.filter((k) => findings[k]);
  const what = kinds.length === 1 ? alone(kinds[0], sourcesOf(findings, kinds[0])) : kinds.map((k) => together(k, sourcesOf(findings, k))).join(' and ');
  return `Action needed for "${name}": ${what}`;
}

function driftParagraph(goalId: string, drift: NonNullable<NoticeFindings['drift']>): Paragraph {
  return {
    lead: 'The receiver established the content contract of this goal, and its latest report names these capabilities the contract does not have:',
    items: [
      ...drift.sectionTypes.map((t) => `section type "${t}"`),
      ...drift.blockTypes.map((t) => `content element (block type) "${t}"`),
      ...drift.requiredFields.map((f) => `required field "${f.key}" (${f.label})`),
    ],
    advice:
      'Deliveries are not held back: later reports are only recorded. Until you adopt these capabilities, such sections are sent in their ' +
      'fallback form and the new fields are not sent. What to change: to adopt them, send the receiver\'s latest report (listed under "reports" ' +
      `by GET /api/goals/${goalId}/contract) as the contract with PUT /api/goals/${goalId}/contract. After that, a result without a value ` +
      'for a new required field waits in Needs approval: set a default for it in the goal, or a value per result.',
  };
}

function mismatchParagraph(m: SourceMismatch): Paragraph {
  const who = sourceName(m.source);
  return {
    lead: `The content contract of this goal was set by hand, and the latest capability report of ${who} does not list these parts of it:`,
    items: [
      ...m.sectionTypes.map((t) => `section type "${t}"`),
      ...m.blockTypes.map((t) => `content element (block type) "${t}"`),
      ...m.fields.map((f) => `field "${f.key}" (${f.label})`),
    ],
    advice:
      `What to change: remove them from the goal's content contract, or update ${who} so that its capability report lists them again. ` +
      'Until then, a section the receiver cannot render is sent in its fallback form, as plain content blocks.',
  };
}

function staleParagraph(goalId: string, s: StaleSource, afterDays: number): Paragraph {
  const who = sourceName(s.source);
  return {
    lead: `${capitalised(who)} has not reported its capabilities for more than ${days(afterDays)}:`,
    items: [`last report: ${utc(s.lastReportedAt)}`],
    advice:
      `What to change: check that ${who} is running and still sends its capability report ` +
      `(PUT /api/goals/${goalId}/target-manifest). Deliveries are not held back; checks use the last report.`,
  };
}

function paragraphs(input: NoticeMailInput): Paragraph[] {
  const { mismatch, drift, stale } = input.findings;
  return [
    ...(mismatch ?? []).map(mismatchParagraph),
    ...(drift ? [driftParagraph(input.goalId, drift)] : []),
    ...(stale ? stale.sources.map((s) => staleParagraph(input.goalId, s, stale.afterDays)) : []),
  ];
}

/** The weekly notice for one goal: subject, plain text and HTML that tell the owner what to change. */
export function composeNotice(input: NoticeMailInput): NoticeMail {
  const name = oneLine(input.goalName) || input.goalId;
  const intro = `Weekly contract check of the goal "${name}" (week ${input.week}).`;
  const footer = `Goal id: ${input.goalId}. You get one such notice per goal and week while a problem lasts.`;
  const parts = paragraphs(input);
  const text = [
    intro,
    ...parts.map((p) => [p.lead, ...p.items.map((i) => `  - ${i}`), '', p.advice].join('\n')),
    footer,
  ].join('\n\n');
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    ...parts.map((p) =>
      `<p>${escapeHtml(p.lead)}</p><ul>${p.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul><p>${escapeHtml(p.advice)}</p>`),
    `<p style="color:#666">${escapeHtml(footer)}</p>`,
  ].join('\n');
  return {
    to: input.ownerEmail,
    subject: subjectOf(name, input.findings),
    text: `${text}\n`,
    html: `<!doctype html>\n<html><body>\n${html}\n</body></html>\n`,
    messageId: noticeMessageId(input.goalId, input.week, input.senderDomain),
  };
}
