import { nextContentRevision } from '@owd/events';

/** One row of a result's revision history, as numbering sees it. */
export interface NumberedRevision {
  revision: number;
  announcedRevision: number;
  resendOf: number | null;
}

/** What result.status reported: payload-builder's `revision` carries the content announced as `announcedRevision`. */
export interface ReportedRevision {
  revision: number;
  announcedRevision: number;
}

export interface Renumbering {
  /** Later contents whose predicted number moves up, highest first, so no two rows ever hold one number. */
  moves: { from: number; to: number }[];
  /** The 409 re-send to record: `revision` repeats the content of revision `of`. */
  resend: { revision: number; of: number };
  /** The result's current revision afterwards: the highest one. */
  current: number;
  approvedRevision: number | null;
  /** The approved content moved: payload-builder has to hear the approval under its new number. */
  reapprove: number | null;
}

/**
 * payload-builder owns revision numbers; manifest-api's number for a content is a prediction by the same rule until
 * reported. Reports come in payload-builder's order, so a content's prediction is right by the time its own number is
 * reported: a number not held yet for the reported content is a 409 re-send of it. Contents announced after it move
 * above the re-send, as payload-builder will number them. Null when the report is known already.
 */
export function learnRevision(rows: readonly NumberedRevision[], approvedRevision: number | null, reported: ReportedRevision): Renumbering | null {
  const carrying = rows.filter((r) => r.announcedRevision === reported.announcedRevision);
  if (carrying.length === 0 || carrying.some((r) => r.revision === reported.revision)) return null;
  const of = Math.max(...carrying.map((r) => r.revision));
  const later = rows.filter((r) => r.announcedRevision > reported.announcedRevision).sort((a, b) => a.revision - b.revision);
  const moves: Renumbering['moves'] = [];
  let highest = reported.revision;
  for (const row of later) {
    const to = nextContentRevision(row.announcedRevision, highest);
    if (to !== row.revision) moves.push({ from: row.revision, to });
    highest = to;
  }
  const moved = moves.find((m) => m.from === approvedRevision);
  // The re-send carries the approval of the content it repeats (payload-builder's rule), under its new number.
  const approved = moved ? moved.to : approvedRevision === of ? reported.revision : approvedRevision;
  return { moves: moves.reverse(), resend: { revision: reported.revision, of }, current: highest, approvedRevision: approved, reapprove: moved?.to ?? null };
}
