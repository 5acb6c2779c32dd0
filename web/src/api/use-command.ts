import { useCallback, useState } from 'react';
import { useStore } from 'react-redux';
import type { Problem } from './contract';
import { problemOf } from './problem';
import { readsSettled } from './reads-settled';

/** A field left empty or malformed, as the server would refuse it: the words come from the same place. */
export const fieldRefusal = (field: string, extensions: Record<string, unknown> = {}): Problem => ({
  status: 400,
  code: 'VALIDATION_FAILED',
  detail: '',
  errors: [{ pointer: `#/${field}` }],
  ...extensions,
});

/** The done sentence waits for the reads the change invalidated, so it never shows beside the figures of before. */
export function useCommand() {
  const [problem, setProblem] = useState<Problem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const store = useStore();
  const run = useCallback(
    async <T>(
      change: () => Promise<T>,
      doneSentence: string | null | ((answer: T) => string) = null,
    ): Promise<boolean> => {
      setProblem(null);
      setDone(null);
      try {
        const answer = await change();
        await readsSettled(store);
        setDone(typeof doneSentence === 'function' ? doneSentence(answer) : doneSentence);
        return true;
      } catch (error) {
        setProblem(problemOf(error));
        return false;
      }
    },
    [store],
  );
  const refuse = useCallback((found: Problem) => {
    setDone(null);
    setProblem(found);
  }, []);
  return { problem, done, run, refuse };
}
