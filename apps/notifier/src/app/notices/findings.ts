const DAY_MS = 86_400_000;

export interface ContractField {
  key: string;
  label: string;
}

/** What the notifier knows about one goal: its projection rows, joined. */
export interface GoalCheckState {
  goalId: string;
  goal: { name: string; ownerEmail: string | null; deleted: boolean } | null;
  contract: { origin: 'manual' | 'receiver'; sectionTypes: string[]; blockTypes: string[]; fields: ContractField[] } | null;
  report: { source: string; sectionTypes: string[]; blockTypes: string[]; fieldKeys: string[]; reportedAt: Date };
}

export interface NoticeFindings {
  /** A manual contract uses these, and the latest report does not list them. */
  mismatch?: { sectionTypes: string[]; blockTypes: string[]; fields: ContractField[] };
  /** The last report is older than the stale threshold. */
  stale?: { lastReportedAt: string; afterDays: number };
}

function missing(used: readonly string[], reported: readonly string[]): string[] {
  const have = new Set(reported);
  return [...new Set(used)].filter((t) => !have.has(t)).sort();
}

/**
 * Why a goal's owner should hear from us this week, or null when the goal matches and reports.
 * Only a contract set by hand can drift: one the receiver established follows its reports.
 */
export function findFindings(state: GoalCheckState, now: Date, staleAfterDays: number): NoticeFindings | null {
  const findings: NoticeFindings = {};
  const { contract, report } = state;
  if (contract?.origin === 'manual') {
    const sectionTypes = missing(contract.sectionTypes, report.sectionTypes);
    const blockTypes = missing(contract.blockTypes, report.blockTypes);
    // §2.4: the fields of a report whose source is not `receiver` (a plugin) do not apply to the goal.
    const fieldKeys = report.source === 'receiver' ? new Set(missing(contract.fields.map((f) => f.key), report.fieldKeys)) : new Set<string>();
    const fields = contract.fields.filter((f) => fieldKeys.has(f.key)).sort((a, b) => a.key.localeCompare(b.key));
    if (sectionTypes.length + blockTypes.length + fields.length > 0) findings.mismatch = { sectionTypes, blockTypes, fields };
  }
  if (now.getTime() - report.reportedAt.getTime() > staleAfterDays * DAY_MS) {
    findings.stale = { lastReportedAt: report.reportedAt.toISOString(), afterDays: staleAfterDays };
  }
  return findings.mismatch || findings.stale ? findings : null;
}
