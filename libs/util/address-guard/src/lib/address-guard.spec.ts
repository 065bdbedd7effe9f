import { addressGuard } from './address-guard';

describe('addressGuard', () => {
  it('should work', () => {
    expect(addressGuard()).toEqual('address-guard');
  })
})
