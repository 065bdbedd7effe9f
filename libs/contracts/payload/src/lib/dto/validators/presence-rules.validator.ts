import { registerDecorator, ValidationArguments } from 'class-validator';

type Rules = (payload: Record<string, unknown>) => string[];

/** Cross-key presence rules (§2.2, §6) that single-property decorators cannot express. */
export function PresenceRules(rules: Rules): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'presenceRules',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (_value: unknown, args: ValidationArguments) => violations(rules, args).length === 0,
        defaultMessage: (args?: ValidationArguments) => (args === undefined ? 'presence rules' : violations(rules, args).join('; ')),
      },
    });
  };
}

function violations(rules: Rules, args: ValidationArguments): string[] {
  return rules(args.object as Record<string, unknown>);
}

/** mode article: markdown + locales; mode cluster: llm_response null, no locales, steps `{}`. */
export function modeRules(p: Record<string, unknown>): string[] {
  if (p['mode'] === 'article') {
    return [
      ...(typeof p['llm_response'] === 'string' ? [] : ['article mode needs llm_response as a string']),
      ...(p['locales'] === undefined ? ['article mode needs locales'] : []),
    ];
  }
  const steps = p['steps'];
  return [
    ...(p['llm_response'] === null ? [] : ['cluster mode needs llm_response null']),
    ...(p['locales'] === undefined ? [] : ['cluster mode must not carry locales']),
    ...(typeof steps === 'object' && steps !== null && Object.keys(steps).length === 0 ? [] : ['cluster mode needs steps {}']),
  ];
}

/** workflow.action: no version keys and workflow_execution = result_id; cluster.updated: both version keys. */
export function eventRules(p: Record<string, unknown>): string[] {
  if (p['event'] === 'cluster.updated') {
    return ['parent_execution', 'new_articles'].filter((key) => p[key] === undefined).map((key) => `cluster.updated needs ${key}`);
  }
  return [
    ...['parent_execution', 'new_articles'].filter((key) => p[key] !== undefined).map((key) => `workflow.action must not carry ${key}`),
    ...(p['workflow_execution'] === p['result_id'] ? [] : ['workflow.action needs workflow_execution equal to result_id']),
  ];
}

/** articles_count is the length of articles. */
export function countRules(p: Record<string, unknown>): string[] {
  const articles = p['articles'];
  return Array.isArray(articles) && p['articles_count'] === articles.length ? [] : ['articles_count must equal articles.length'];
}
