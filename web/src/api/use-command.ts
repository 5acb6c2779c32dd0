import { useCallback, useState } from 'react';
import type { Problem } from './contract';
import { problemOf } from './problem';

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
  return { problem, done, run };
}
