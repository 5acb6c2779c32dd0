import { useEffect } from 'react';

/** Every page's title reads "<page> · <product>", so tabs and history say which screen is which. */
export const documentTitle = (page: string, productName: string): string => `${page} · ${productName}`;

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
