import * as conventions from '@opentelemetry/semantic-conventions';
import * as attributes from './http-span-attributes';

describe('the HTTP span attribute names', () => {
  it.each(Object.entries(attributes))('%s is the semantic conventions\' own name', (name, value) => {
    expect(value).toBe((conventions as Record<string, unknown>)[name]);
  });

  it('are the eight the services set', () => {
    expect(Object.keys(attributes)).toHaveLength(8);
  });
});
