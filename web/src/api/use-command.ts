import { useCallback, useState } from 'react';
import type { Problem } from './contract';
import { problemOf } from './problem';

/** A field left empty or malformed, as the server would refuse it: the words come from the same place. */
export const fieldRefusal = (field: string, extensions: Record<string, unknown> = {}): Problem => ({
  status: 400,
  code: 'VALIDATION_FAILED',
  detail: '',
  errors: [{ pointer: `#/${field}` }],
  ...extensions,
});

/**
 * One change asked of the server from a form or a button: its refusal (shown in words next to it) or
 * the sentence that says it is done. `run` answers whether it was done; nothing typed is touched here.
 */
export function useCommand() {
  const [problem, setProblem] = useState<Problem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = useCallback(async (change: () => Promise<unknown>, doneSentence: string | null = null): Promise<boolean> => {
    setProblem(null);
    setDone(null);
    try {
      await change();
      setDone(doneSentence);
      return true;
    } catch (error) {
      setProblem(problemOf(error));
      return false;
    }
  }, []);
  /** A refusal found in the browser before anything is sent (an empty or obviously wrong field), said in the server's words. */
  const refuse = useCallback((found: Problem) => {
    setDone(null);
    setProblem(found);
  }, []);
  return { problem, done, run, refuse };
}
