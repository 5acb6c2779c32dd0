import { describe, it, expect } from '@jest/globals';
import { render, screen } from '@testing-library/react';

describe('web jest', () => {
  it('renders', () => {
    render(<p>hello</p>);
    expect(screen.getByText('hello')).toBeInTheDocument();
  });
});
