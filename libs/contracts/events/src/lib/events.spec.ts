import { events } from './events';

describe('events', () => {
  it('should work', () => {
    expect(events()).toEqual('events');
  })
})
