import { signer } from './signer';

describe('signer', () => {
  it('should work', () => {
    expect(signer()).toEqual('signer');
  })
})
