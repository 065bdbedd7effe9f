import { payload } from './payload';

describe('payload', () => {
  it('should work', () => {
    expect(payload()).toEqual('payload');
  })
})
