/** "Now" for the weekly run and its schedule; a provider so tests (and replays) decide what time it is. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
