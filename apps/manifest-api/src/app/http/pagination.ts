import type { Type as ClassType } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '../openapi/api-docs';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ProblemException } from './problem';

export const PAGE_LIMIT = { min: 1, max: 100, default: 50 } as const;
const CURSOR_EXAMPLE = 'WyIyMDI2LTExLTIxVDEwOjAwOjAwLjAwMFoiLCI1YjBmM2MxZS04ZDJhLTRjNmUtOWYxYS0yYjdkNGU2YThjMTAiXQ';

/** `?limit&cursor` of every list: at most `limit` items after the position `cursor` names. */
export class PageQuery {
  @ApiPropertyOptional({ minimum: PAGE_LIMIT.min, maximum: PAGE_LIMIT.max, default: PAGE_LIMIT.default, description: 'Items per page' })
  @IsOptional() @Type(() => Number) @IsInt() @Min(PAGE_LIMIT.min) @Max(PAGE_LIMIT.max)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page; absent for the first page. Opaque.', example: CURSOR_EXAMPLE })
  @IsOptional() @IsString() @MaxLength(512)
  cursor?: string;
}

/** One page of a list: `nextCursor` is null on the last page. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** The OpenAPI schema `<Item>Page` of a list answer. */
export function PageOf<T>(item: ClassType<T>): ClassType<Page<T>> {
  class PageView implements Page<T> {
    @ApiProperty({ type: [item] }) data!: T[];
    @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page', example: CURSOR_EXAMPLE })
    nextCursor!: string | null;
  }
  Object.defineProperty(PageView, 'name', { value: `${item.name.replace(/View$/, '')}Page` });
  return PageView;
}

export const mapPage = <T, V>(page: Page<T>, of: (item: T) => V): Page<V> => ({ data: page.data.map(of), nextCursor: page.nextCursor });

/** The sort key of a row: a time and the id that breaks ties. */
export type SortKey = readonly [Date, string];

export const invalidCursor = () => new ProblemException({
  slug: 'invalid-cursor', title: 'Invalid cursor', status: 400,
  detail: 'The cursor is not one this list gave out. Start again without a cursor.',
  errors: [{ field: 'cursor', message: 'cursor must be the nextCursor of a page of this list' }],
});

/** The opaque form of a position in a list: a time (as text) and the id that breaks ties. */
export function encodeCursorKey(time: string, id: string): string {
  return Buffer.from(JSON.stringify([time, id])).toString('base64url');
}

/** The (time text, id) a cursor names; anything else (also another list's cursor, by its id pattern) is a 400. */
export function decodeCursorKey(cursor: string, idPattern: RegExp): [string, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalidCursor();
  const [time, id] = parsed as unknown[];
  if (typeof time !== 'string' || typeof id !== 'string' || !idPattern.test(id)) throw invalidCursor();
  return [time, id];
}

export function encodeCursor([time, id]: SortKey): string {
  return encodeCursorKey(time.toISOString(), id);
}

/** The sort key a cursor names, its time exactly as a page wrote it. */
export function decodeCursor(cursor: string, idPattern: RegExp): SortKey {
  const [time, id] = decodeCursorKey(cursor, idPattern);
  const at = new Date(time);
  if (Number.isNaN(at.getTime()) || at.toISOString() !== time) throw invalidCursor();
  return [at, id];
}

export interface Keyset<E> {
  /** SQL of the time and id columns, e.g. `r.created_at`, `r.id`. */
  time: string;
  id: string;
  idPattern: RegExp;
  order: 'ASC' | 'DESC';
  keyOf: (row: E) => SortKey;
}

/** A page of `query` in keyset order: rows inserted while a client pages through never shift or repeat what it sees. */
export async function keysetPage<E extends ObjectLiteral>(query: SelectQueryBuilder<E>, keyset: Keyset<E>, page: PageQuery): Promise<Page<E>> {
  const limit = page.limit ?? PAGE_LIMIT.default;
  if (page.cursor !== undefined) {
    const [at, id] = decodeCursor(page.cursor, keyset.idPattern);
    query.andWhere(`(${keyset.time}, ${keyset.id}) ${keyset.order === 'DESC' ? '<' : '>'} (:cursorAt, :cursorId)`, { cursorAt: at, cursorId: id });
  }
  const rows = await query.orderBy(keyset.time, keyset.order).addOrderBy(keyset.id, keyset.order).limit(limit + 1).getMany();
  const data = rows.slice(0, limit);
  return { data, nextCursor: rows.length > limit ? encodeCursor(keyset.keyOf(data[data.length - 1])) : null };
}
