import { useCallback, useState } from 'react';
import { useStore } from 'react-redux';
import type { Problem } from './contract';
import { problemOf } from './problem';
import { readsSettled } from './reads-settled';

/**
 * One change asked of the server from a form or a button: its refusal (shown in words next to it) or
 * the sentence that says it is done. `run` answers whether it was done; nothing typed is touched here.
 * The sentence waits for the reads the change invalidated, so it never shows beside the figures of before.
 */
export function useCommand() {
  const [problem, setProblem] = useState<Problem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const store = useStore();
  const run = useCallback(async (change: () => Promise<unknown>, doneSentence: string | null = null): Promise<boolean> => {
    setProblem(null);
    setDone(null);
    try {
      await change();
      await readsSettled(store);
      setDone(doneSentence);
      return true;
    } catch (error) {
      setProblem(problemOf(error));
      return false;
    }
  }, [store]);
  return { problem, done, run };
}
