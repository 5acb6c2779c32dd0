import { useEffect } from 'react';

/** "Members · Acme · Chorus" (docs/console.md, Every page): tabs and history say which screen is which. */
export const documentTitle = (...parts: (string | null | undefined)[]): string =>
  parts.filter((part) => part !== null && part !== undefined && part !== '').join(' · ');

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
