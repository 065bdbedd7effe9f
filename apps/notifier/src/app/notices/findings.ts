const DAY_MS = 86_400_000;

export interface ContractField {
  key: string;
  label: string;
}

type Contract = { origin: 'manual' | 'receiver'; sectionTypes: string[]; blockTypes: string[]; fields: ContractField[] };
type Report = { source: string; sectionTypes: string[]; blockTypes: string[]; fieldKeys: string[]; requiredFields: ContractField[]; reportedAt: Date };

/** What the notifier knows about one goal: its projection rows, joined. */
export interface GoalCheckState {
  goalId: string;
  goal: { name: string; ownerEmail: string | null; deleted: boolean } | null;
  contract: Contract | null;
  report: Report;
}

export interface NoticeFindings {
  /** A manual contract uses these, and the latest report does not list them. */
  mismatch?: { sectionTypes: string[]; blockTypes: string[]; fields: ContractField[] };
  /** The receiver's latest report names these, and the contract it established does not have them (not adopted yet). */
  drift?: { sectionTypes: string[]; blockTypes: string[]; requiredFields: ContractField[] };
  /** The last report is older than the stale threshold. */
  stale?: { lastReportedAt: string; afterDays: number };
}

function missing(used: readonly string[], reported: readonly string[]): string[] {
  const have = new Set(reported);
  return [...new Set(used)].filter((t) => !have.has(t)).sort();
}

const byKey = (a: ContractField, b: ContractField) => a.key.localeCompare(b.key);

function mismatchOf(contract: Contract, report: Report): NoticeFindings['mismatch'] {
  const sectionTypes = missing(contract.sectionTypes, report.sectionTypes);
  const blockTypes = missing(contract.blockTypes, report.blockTypes);
  // §2.4: the fields of a report whose source is not `receiver` (a plugin) do not apply to the goal.
  const fieldKeys = report.source === 'receiver' ? new Set(missing(contract.fields.map((f) => f.key), report.fieldKeys)) : new Set<string>();
  const fields = contract.fields.filter((f) => fieldKeys.has(f.key)).sort(byKey);
  return sectionTypes.length + blockTypes.length + fields.length > 0 ? { sectionTypes, blockTypes, fields } : undefined;
}

function driftOf(contract: Contract, report: Report): NoticeFindings['drift'] {
  const sectionTypes = missing(report.sectionTypes, contract.sectionTypes);
  const blockTypes = missing(report.blockTypes, contract.blockTypes);
  const inContract = new Set(contract.fields.map((f) => f.key));
  const requiredFields = report.requiredFields.filter((f) => !inContract.has(f.key)).sort(byKey);
  return sectionTypes.length + blockTypes.length + requiredFields.length > 0 ? { sectionTypes, blockTypes, requiredFields } : undefined;
}

/**
 * Why a goal's owner should hear from us this week, or null when the goal matches and reports.
 * A manual contract drifts when the receiver stops reporting what it uses; a receiver-established one when
 * later receiver reports add what it lacks (they are only recorded, §1, until a person adopts them).
 */
export function findFindings(state: GoalCheckState, now: Date, staleAfterDays: number): NoticeFindings | null {
  const { contract, report } = state;
  const mismatch = contract?.origin === 'manual' ? mismatchOf(contract, report) : undefined;
  const drift = contract?.origin === 'receiver' && report.source === 'receiver' ? driftOf(contract, report) : undefined;
  const stale = now.getTime() - report.reportedAt.getTime() > staleAfterDays * DAY_MS
    ? { lastReportedAt: report.reportedAt.toISOString(), afterDays: staleAfterDays } : undefined;
  if (!mismatch && !drift && !stale) return null;
  return { ...(mismatch && { mismatch }), ...(drift && { drift }), ...(stale && { stale }) };
}
