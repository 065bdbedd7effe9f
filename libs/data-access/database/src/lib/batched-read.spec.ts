import { BatchedRead } from './batched-read';

/** A read the test answers by hand, recording the keys of every statement. */
function handRead() {
  const calls: string[][] = [];
  const pending: { keys: string[]; answer: (rows: Map<string, string>) => void; fail: (err: Error) => void }[] = [];
  const read = (keys: readonly string[]) => new Promise<Map<string, string>>((answer, fail) => {
    calls.push([...keys]);
    pending.push({ keys: [...keys], answer, fail });
  });
  const rowsOf = (keys: string[]) => new Map(keys.filter((k) => k !== 'missing').map((k) => [k, `row ${k}`]));
  return { calls, pending, read, rowsOf };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchedRead', () => {
  it('reads at once when nothing is on its way, and the keys asked for meanwhile together in the next read', async () => {
    const hand = handRead();
    const reads = new BatchedRead(hand.read, { maxBatch: 10 });
    const first = reads.get('a');
    await settle();
    expect(hand.calls).toEqual([['a']]);
    const later = [reads.get('b'), reads.get('c'), reads.get('b'), reads.get('missing')];
    await settle();
    expect(hand.calls).toHaveLength(1);

    hand.pending[0].answer(hand.rowsOf(hand.pending[0].keys));
    expect(await first).toBe('row a');
    await settle();
    expect(hand.calls).toEqual([['a'], ['b', 'c', 'missing']]);
    hand.pending[1].answer(hand.rowsOf(hand.pending[1].keys));
    expect(await Promise.all(later)).toEqual(['row b', 'row c', 'row b', undefined]);
  });

  it('reads at most maxBatch keys in one statement', async () => {
    const hand = handRead();
    const reads = new BatchedRead(hand.read, { maxBatch: 2 });
    const first = reads.get('a');
    const rest = ['b', 'c', 'd'].map((k) => reads.get(k));
    await settle();
    hand.pending[0].answer(hand.rowsOf(hand.pending[0].keys));
    await first;
    await settle();
    hand.pending[1].answer(hand.rowsOf(hand.pending[1].keys));
    await settle();
    hand.pending[2].answer(hand.rowsOf(hand.pending[2].keys));
    expect(await Promise.all(rest)).toEqual(['row b', 'row c', 'row d']);
    expect(hand.calls).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('reads a failed batch again key by key, so only the key that breaks the statement fails its callers', async () => {
    const hand = handRead();
    const reads = new BatchedRead(hand.read, { maxBatch: 10 });
    const first = reads.get('a');
    const good = reads.get('b');
    const bad = reads.get('bad');
    await settle();
    hand.pending[0].answer(hand.rowsOf(['a']));
    await first;
    await settle();
    hand.pending[1].fail(new Error('invalid input syntax'));
    await settle();
    hand.pending[2].answer(hand.rowsOf(['b']));
    await settle();
    hand.pending[3].fail(new Error('invalid input syntax'));
    expect(await good).toBe('row b');
    await expect(bad).rejects.toThrow('invalid input syntax');
    expect(hand.calls).toEqual([['a'], ['b', 'bad'], ['b'], ['bad']]);
  });
});
