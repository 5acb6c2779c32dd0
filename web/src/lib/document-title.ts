import { useEffect } from 'react';

/** `Members · Acme · Chorus`: the page, then what it belongs to (CONSOLE.md, Every page). */
export const documentTitle = (...parts: (string | null | undefined)[]): string => parts.filter((part) => part !== null && part !== undefined && part !== '').join(' · ');

/** Sets the document title while the component is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
