import { jest } from '@jest/globals';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { makeStore, type RootState } from '../app/store';
import { createFakeNetwork, type FakeNetwork } from './fake-network';

type RenderOptions = {
  preloadedState?: Partial<RootState>;
  /** The URL the page was opened at, with its query. */
  route?: string;
  network?: FakeNetwork;
};

export function renderWithProviders(
  ui: ReactElement,
  { preloadedState, route = '/', network = createFakeNetwork() }: RenderOptions = {},
) {
  const navigate = jest.fn<(url: string) => void>();
  // The pauses before a read is asked again, recorded and not waited for.
  const waits: number[] = [];
  const wait = async (milliseconds: number) => void waits.push(milliseconds);
  const store = makeStore(preloadedState, { http: network.http, navigate, wait });
  const user = userEvent.setup();
  const view = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </Provider>,
  );
  return { ...view, store, network, navigate, user, waits };
}
