import { platform } from './platform';

describe('platform', () => {
  it('should work', () => {
    expect(platform()).toEqual('platform');
  })
})
