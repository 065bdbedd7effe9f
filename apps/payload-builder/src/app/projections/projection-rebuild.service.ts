import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { applyResultEvent, emptyProjection, type ResultProjection } from '../results/result-state';
import { ResultStore, toResultEvent, type ResultEventRow } from '../results/result-store.service';

const PAGE = 1000;

export interface RebuildSummary {
  results: number;
  events: number;
}

/**
 * Throws the `results` projection away and folds it again from `result_events`, with the same reducer the
 * consumers use, so the rebuilt rows equal the live ones. One transaction: handlers wait until it is done.
 */
@Injectable()
export class ProjectionRebuildService {
  private readonly logger = new Logger(ProjectionRebuildService.name);

  constructor(private readonly dataSource: DataSource, private readonly store: ResultStore) {}

  rebuild(): Promise<RebuildSummary> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`TRUNCATE results`);
      const summary = await this.fold(manager);
      this.logger.log(`results projection rebuilt: ${summary.results} results from ${summary.events} events`);
      return summary;
    });
  }

  private async fold(manager: EntityManager): Promise<RebuildSummary> {
    const summary: RebuildSummary = { results: 0, events: 0 };
    let current: ResultProjection | null = null;
    const done: ResultProjection[] = [];
    let after: [string, number] = ['', 0];
    for (;;) {
      const rows: ResultEventRow[] = await manager.query(
        `SELECT result_id, seq, data, occurred_at, caused_by FROM result_events
          WHERE (result_id, seq) > ($1, $2) ORDER BY result_id, seq LIMIT $3`,
        [after[0], after[1], PAGE],
      );
      for (const row of rows) {
        if (current !== null && current.resultId !== row.result_id) {
          done.push(current);
          current = null;
        }
        current = applyResultEvent(current ?? emptyProjection(row.result_id), toResultEvent(row));
        summary.events += 1;
      }
      summary.results += done.length;
      await this.store.writeRows(manager, done.splice(0));
      if (rows.length < PAGE) break;
      const last = rows[rows.length - 1];
      after = [last.result_id, last.seq];
    }
    if (current !== null) {
      await this.store.writeRows(manager, [current]);
      summary.results += 1;
    }
    return summary;
  }
}
