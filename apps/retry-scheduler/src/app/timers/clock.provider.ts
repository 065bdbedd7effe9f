import { Injectable } from '@nestjs/common';

/** The time source of the scheduler; unit tests provide a fixed or stepped one. */
export abstract class Clock {
  abstract now(): Date;
}

@Injectable()
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
