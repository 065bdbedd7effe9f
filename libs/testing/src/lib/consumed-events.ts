import { register } from 'prom-client';

/**
 * The events this process's consumers counted (`owd_events_consumed_total`, counted once a chunk committed), with
 * the given result (`processed`, `duplicate`, `ignored`, `dead_lettered`) and type, either left out for all: what a
 * test waits on for a message that leaves no row of its own (a copy, a skipped event).
 */
export async function consumedEvents({ result, type }: { result?: string; type?: string } = {}): Promise<number> {
  const metric = await register.getSingleMetric('owd_events_consumed_total')?.get();
  return (metric?.values ?? [])
    .filter((v) => (result === undefined || v.labels['result'] === result) && (type === undefined || v.labels['type'] === type))
    .reduce((sum, v) => sum + v.value, 0);
}
