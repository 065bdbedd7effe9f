import { packBytes } from './packed-bytes';

describe('packBytes', () => {
  it('puts the values one after another and says where each starts (from 1) and how many bytes it has', () => {
    const values = ['a', Buffer.from([0, 255]), '', 'é😀', Buffer.alloc(0), 'z'];
    const { bytes, starts, lengths } = packBytes(values);
    expect(lengths).toEqual([1, 2, 0, 6, 0, 1]);
    expect(starts).toEqual([1, 2, 4, 4, 10, 10]);
    values.forEach((v, i) => expect(bytes.subarray(starts[i] - 1, starts[i] - 1 + lengths[i]).equals(Buffer.from(v))).toBe(true));
    expect(bytes.length).toBe(10);
  });
});
