import { randomBytes } from 'node:crypto';
import { parseEncryptionKey, SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed for the same goal, and the sealed text does not contain the secret', () => {
    const sealed = box.seal('It\'s a Secret to Everybody', 'goal-1');
    expect(sealed).not.toContain('Secret');
    expect(box.open(sealed, 'goal-1')).toBe('It\'s a Secret to Everybody');
  });

  it('seals the same secret differently every time', () => {
    expect(box.seal('s', 'g')).not.toBe(box.seal('s', 'g'));
  });

  it('refuses a ciphertext moved to another goal, a tampered one, and one sealed with another key', () => {
    const sealed = box.seal('secret', 'goal-1');
    expect(() => box.open(sealed, 'goal-2')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'), 'goal-1')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'goal-1')).toThrow();
  });

  it('accepts only a 32-byte base64 key', () => {
    expect(parseEncryptionKey(randomBytes(32).toString('base64'))).toHaveLength(32);
    expect(() => parseEncryptionKey(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
    expect(() => parseEncryptionKey(undefined)).toThrow(/SECRET_ENCRYPTION_KEY/);
  });
});
