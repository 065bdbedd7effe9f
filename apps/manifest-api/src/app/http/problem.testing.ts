import { ProblemException, type Problem } from './problem';

/** The problem `fn` throws; fails the test when it throws something else or nothing. */
export function problemOf(fn: () => unknown): Problem {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProblemException) return error.toProblem();
    throw error;
  }
  throw new Error('expected a ProblemException, nothing was thrown');
}
