import { refusedAttempt } from './refused-attempt';

describe('refusedAttempt', () => {
  it('builds a refused result with the rule in the message and the target host', () => {
    expect(refusedAttempt('https://hooks.example:8443/in', 'private', '10.0.0.5 is a private address (resolved from hooks.example)')).toMatchObject({
      outcome: 'refused', errorClass: 'address_refused', refusedRule: 'private', targetHost: 'hooks.example:8443', status: null, durationMs: 0,
      errorMessage: 'address refused by rule private: 10.0.0.5 is a private address (resolved from hooks.example)',
    });
  });

  it('copes with a URL that does not parse', () => {
    expect(refusedAttempt('::', 'invalid-url', 'the recipient URL is not an absolute URL').targetHost).toBe('');
  });
});
