import { describe, expect, it } from '@jest/globals';
import { render } from '@testing-library/react';
import { documentTitle, useDocumentTitle } from './document-title';

function Page({ title }: { title: string }) {
  useDocumentTitle(title);
  return null;
}

describe('the document title', () => {
  it('reads "<page> · <product>", and "<page> · <organization> · <product>" in the console', () => {
    expect(documentTitle('Log in', 'Acme Voice')).toBe('Log in · Acme Voice');
    expect(documentTitle('Members', 'Acme', 'Chorus')).toBe('Members · Acme · Chorus');
    expect(documentTitle('Your organizations', undefined, 'Chorus')).toBe('Your organizations · Chorus');
  });

  it('is set while the page is shown, follows a new title, and is given back after the page', () => {
    document.title = 'Chorus';
    const view = render(<Page title="Log in · Chorus" />);
    expect(document.title).toBe('Log in · Chorus');

    view.rerender(<Page title="Forgot your password? · Chorus" />);
    expect(document.title).toBe('Forgot your password? · Chorus');

    view.unmount();
    expect(document.title).toBe('Chorus');
  });
});
