const DAY_MS = 86_400_000;

/** The `source` of an HTTP-address receiver's report; any other source is a plugin (§2.4). */
export const RECEIVER_SOURCE = 'receiver';

export interface ContractField {
  key: string;
  label: string;
}

type Contract = { origin: 'manual' | 'receiver'; sectionTypes: string[]; blockTypes: string[]; fields: ContractField[] };
export type SourceReport = { source: string; sectionTypes: string[]; blockTypes: string[]; fieldKeys: string[]; requiredFields: ContractField[]; reportedAt: Date };

/** What the notifier knows about one goal: its projection rows, joined. */
export interface GoalCheckState {
  goalId: string;
  goal: { name: string; ownerEmail: string | null; deleted: boolean } | null;
  contract: Contract | null;
  /** The latest report of each source that ever reported for the goal (at least one), ordered by source. */
  reports: SourceReport[];
}

export interface SourceMismatch {
  source: string;
  sectionTypes: string[];
  blockTypes: string[];
  fields: ContractField[];
}

export interface StaleSource {
  source: string;
  lastReportedAt: string;
}

export interface NoticeFindings {
  /** Per source: what a manual contract uses and that source's own latest report does not list. */
  mismatch?: SourceMismatch[];
  /** The receiver's latest report names these, and the contract it established does not have them (not adopted yet). */
  drift?: { sectionTypes: string[]; blockTypes: string[]; requiredFields: ContractField[] };
  /** Each source whose own latest report is older than the stale threshold. */
  stale?: { sources: StaleSource[]; afterDays: number };
}

function missing(used: readonly string[], reported: readonly string[]): string[] {
  const have = new Set(reported);
  return [...new Set(used)].filter((t) => !have.has(t)).sort();
}

const byKey = (a: ContractField, b: ContractField) => a.key.localeCompare(b.key);

function mismatchOf(contract: Contract, report: SourceReport): SourceMismatch | undefined {
  const sectionTypes = missing(contract.sectionTypes, report.sectionTypes);
  const blockTypes = missing(contract.blockTypes, report.blockTypes);
  // §2.4: the fields of a report whose source is not `receiver` (a plugin) do not apply to the goal.
  const fieldKeys = report.source === RECEIVER_SOURCE ? new Set(missing(contract.fields.map((f) => f.key), report.fieldKeys)) : new Set<string>();
  const fields = contract.fields.filter((f) => fieldKeys.has(f.key)).sort(byKey);
  return sectionTypes.length + blockTypes.length + fields.length > 0 ? { source: report.source, sectionTypes, blockTypes, fields } : undefined;
}

function driftOf(contract: Contract, report: SourceReport): NoticeFindings['drift'] {
  const sectionTypes = missing(report.sectionTypes, contract.sectionTypes);
  const blockTypes = missing(report.blockTypes, contract.blockTypes);
  const inContract = new Set(contract.fields.map((f) => f.key));
  const requiredFields = report.requiredFields.filter((f) => !inContract.has(f.key)).sort(byKey);
  return sectionTypes.length + blockTypes.length + requiredFields.length > 0 ? { sectionTypes, blockTypes, requiredFields } : undefined;
}

const nonEmpty = <T>(items: T[]): T[] | undefined => (items.length > 0 ? items : undefined);

/**
 * Why a goal's owner should hear from us this week, or null when the goal matches and reports.
 * Each source is judged by its own latest report, so one source's report never blames another. A manual contract
 * drifts when a source stops reporting what it uses; a receiver-established one when later receiver reports add
 * what it lacks (they are only recorded, §1, until a person adopts them).
 */
export function findFindings(state: GoalCheckState, now: Date, staleAfterDays: number): NoticeFindings | null {
  const { contract, reports } = state;
  const mismatch = contract?.origin === 'manual' ? nonEmpty(reports.flatMap((r) => mismatchOf(contract, r) ?? [])) : undefined;
  const receiver = reports.find((r) => r.source === RECEIVER_SOURCE);
  const drift = contract?.origin === 'receiver' && receiver ? driftOf(contract, receiver) : undefined;
  const staleSources = nonEmpty(reports
    .filter((r) => now.getTime() - r.reportedAt.getTime() > staleAfterDays * DAY_MS)
    .map((r) => ({ source: r.source, lastReportedAt: r.reportedAt.toISOString() })));
  const stale = staleSources && { sources: staleSources, afterDays: staleAfterDays };
  if (!mismatch && !drift && !stale) return null;
  return { ...(mismatch && { mismatch }), ...(drift && { drift }), ...(stale && { stale }) };
}
