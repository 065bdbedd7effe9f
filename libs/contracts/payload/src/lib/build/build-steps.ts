import { StepInput } from '../input/result-revision.input';
import { StepEntry } from '../types/payload.types';
import { assertAmount, assertInteger } from './number-guards';
import { mapSorted } from './sorted-record';

/** `steps`, keyed by step name in sorted order. */
export function buildSteps(steps: Record<string, StepInput>): Record<string, StepEntry> {
  return mapSorted(steps, (step, name) => ({
    text: step.text,
    model: step.model,
    tokens: assertInteger(step.tokens, `steps.${name}.tokens`, 0),
    cost: assertAmount(step.cost, `steps.${name}.cost`),
  }));
}
