import { goalRuleErrors } from './goal-rules';

const base = { secondLanguageEnabled: false, secondLanguage: null, deliveryMode: 'test' as const, recipientUrl: null, fieldDefaults: {} };

describe('goalRuleErrors', () => {
  it('accepts a new goal in test mode without a URL', () => {
    expect(goalRuleErrors(base, null, true)).toEqual([]);
  });

  it('needs a second language when the switch is on', () => {
    expect(goalRuleErrors({ ...base, secondLanguageEnabled: true }, null, true)).toEqual([{ field: 'secondLanguage', message: expect.any(String) }]);
  });

  it('needs a recipient URL for production', () => {
    expect(goalRuleErrors({ ...base, deliveryMode: 'production' }, null, true)[0].field).toBe('recipientUrl');
  });

  it('checks field defaults against the contract only while they are saved', () => {
    const fields = [{ key: 'desk', label: 'Desk', type: 'bool' as const, required: false, multiple: false }];
    const goal = { ...base, fieldDefaults: { desk: 'x' } };
    expect(goalRuleErrors(goal, fields, true)).toEqual([{ field: 'fieldDefaults.desk', message: expect.any(String) }]);
    expect(goalRuleErrors(goal, fields, false)).toEqual([]);
    expect(goalRuleErrors(goal, null, true)).toEqual([]);
  });
});
