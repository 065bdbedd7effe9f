import { conflictResendRevision, nextContentRevision } from './revision-rules';

describe('revision rules', () => {
  it('numbers a content change as announced, unless a re-send already took that number or a higher one', () => {
    expect(nextContentRevision(2, 1)).toBe(2);
    expect(nextContentRevision(2, 6)).toBe(7);
    expect(nextContentRevision(7, 6)).toBe(7);
  });

  it('numbers a 409 re-send above both the receiver\'s revision and the one it repeats', () => {
    expect(conflictResendRevision(5, 1)).toBe(6);
    expect(conflictResendRevision(1, 3)).toBe(4);
  });
});
