import { learnRevision, type NumberedRevision } from './revision-numbering';

const content = (revision: number, announcedRevision = revision): NumberedRevision => ({ revision, announcedRevision, resendOf: null });

describe('learning revision numbers from result.status', () => {
  it('knows a content\'s own number already: nothing changes', () => {
    expect(learnRevision([content(1), content(2)], 1, { revision: 2, announcedRevision: 2 })).toBeNull();
    expect(learnRevision([content(1), content(7, 2)], 1, { revision: 7, announcedRevision: 2 })).toBeNull();
  });

  it('ignores a report about content it never announced', () => {
    expect(learnRevision([content(1)], null, { revision: 6, announcedRevision: 4 })).toBeNull();
  });

  it('records a 409 re-send as the current revision, carrying the approval of the content it repeats', () => {
    expect(learnRevision([content(1)], 1, { revision: 6, announcedRevision: 1 })).toEqual({
      moves: [], resend: { revision: 6, of: 1 }, current: 6, approvedRevision: 6, reapprove: null,
    });
    expect(learnRevision([content(1), { revision: 6, announcedRevision: 1, resendOf: 1 }], null, { revision: 8, announcedRevision: 1 }))
      .toMatchObject({ resend: { revision: 8, of: 6 }, current: 8, approvedRevision: null });
  });

  it('moves contents announced before the re-send was known above it, and re-approves an approved one under its new number', () => {
    // Announced as 2 and 3 while payload-builder re-sent revision 1 as 2 (the receiver knew revision 1).
    const rows = [content(1), content(2), content(3)];
    expect(learnRevision(rows, 3, { revision: 2, announcedRevision: 1 })).toEqual({
      moves: [{ from: 3, to: 4 }, { from: 2, to: 3 }], resend: { revision: 2, of: 1 }, current: 4, approvedRevision: 4, reapprove: 4,
    });
  });

  it('leaves later contents where they are when the re-send is below them', () => {
    expect(learnRevision([content(1), content(7)], null, { revision: 6, announcedRevision: 1 }))
      .toEqual({ moves: [], resend: { revision: 6, of: 1 }, current: 7, approvedRevision: null, reapprove: null });
  });
});
