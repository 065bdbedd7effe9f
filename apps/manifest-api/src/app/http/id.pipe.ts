import type { PipeTransform } from '@nestjs/common';
import { problems } from './problem';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that cannot exist is simply not found (and never reaches SQL as a bad cast). */
export class IdPipe implements PipeTransform<string, string> {
  constructor(private readonly what: string, private readonly pattern: RegExp = UUID_PATTERN) {}

  transform(value: string): string {
    if (!this.pattern.test(value)) throw problems.notFound(this.what);
    return value.toLowerCase();
  }
}
