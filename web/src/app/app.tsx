import { AppProvider } from './provider';
import { AppRoutes } from './router';
import type { AppStore } from './store';

export function App({ store }: { store: AppStore }) {
  return (
    <AppProvider store={store}>
      <AppRoutes />
    </AppProvider>
  );
}
