import { render, type RenderResult } from '@testing-library/react';
import { MemoryRouter } from 'react-router';

import { Providers } from '../app/providers.tsx';
import { AppRoutes } from '../app/routes.tsx';

/** The whole app, as main.tsx builds it, at `path`. */
export function renderApp(path = '/welcome'): RenderResult {
  return render(
    <Providers>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </Providers>,
  );
}
