import { ConsumerLag } from './consumer-lag';
import { messagingMetrics } from './metrics';

async function lagOf(group: string): Promise<Record<string, number>> {
  const { values } = await messagingMetrics.consumerLag.get();
  return Object.fromEntries(values.filter((v) => v.labels['group'] === group).map((v) => [`${v.labels['topic']}/${v.labels['partition']}`, v.value]));
}

describe('ConsumerLag', () => {
  it('counts the messages from the next offset up to the high watermark, per partition', async () => {
    const lag = new ConsumerLag('lag.count');
    lag.set('delivery.requested', 0, '120', '100');
    lag.set('delivery.requested', 1, '7', '7');
    expect(await lagOf('lag.count')).toEqual({ 'delivery.requested/0': 20, 'delivery.requested/1': 0 });

    lag.set('delivery.requested', 0, '120', '119');
    expect((await lagOf('lag.count'))['delivery.requested/0']).toBe(1);
  });

  it('never reports a negative lag (a high watermark older than the offset just processed)', async () => {
    const lag = new ConsumerLag('lag.negative');
    lag.set('result.revised', 2, '10', '11');
    expect(await lagOf('lag.negative')).toEqual({ 'result.revised/2': 0 });
  });

  it('drops the partitions a rebalance moved to another member and keeps the ones still assigned', async () => {
    const lag = new ConsumerLag('lag.rebalance');
    lag.set('result.revised', 0, '50', '40');
    lag.set('result.revised', 1, '50', '45');
    lag.set('goal.changed', 0, '3', '1');

    lag.retain({ 'result.revised': [1] });

    expect(await lagOf('lag.rebalance')).toEqual({ 'result.revised/1': 5 });
  });

  it('removes every series of the member when it leaves the group', async () => {
    const lag = new ConsumerLag('lag.leave');
    lag.set('result.revised', 0, '5', '1');
    lag.clear();
    expect(await lagOf('lag.leave')).toEqual({});
  });

  it('leaves the series of other groups alone', async () => {
    const mine = new ConsumerLag('lag.mine');
    const other = new ConsumerLag('lag.other');
    mine.set('result.revised', 0, '9', '4');
    other.set('result.revised', 0, '9', '6');
    mine.clear();
    expect(await lagOf('lag.other')).toEqual({ 'result.revised/0': 3 });
  });
});
