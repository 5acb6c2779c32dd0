import { useEffect } from 'react';

/**
 * Every page's title reads "<page> · <product>" ("Log in · Chorus"), and a console page's
 * "<page> · <organization> · <product>" ("Members · Acme · Chorus", docs/console.md, Every page), so tabs
 * and history say which screen is which. Missing parts are left out.
 */
export const documentTitle = (...parts: (string | null | undefined)[]): string =>
  parts.filter((part) => part !== null && part !== undefined && part !== '').join(' · ');

/** The document's title while the calling component is shown; the previous one comes back after it. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
