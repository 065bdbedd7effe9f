/** A clock that moves only when the test says so: time-driven behaviour (a bucket refilling) happens on cue, never by chance. */
export class ManualClock {
  constructor(private epochMs = Date.parse('2026-11-21T10:00:00Z')) {}

  now(): Date {
    return new Date(this.epochMs);
  }

  advance(ms: number): void {
    this.epochMs += ms;
  }
}
