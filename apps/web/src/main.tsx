import './app/styles.ts';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';

import { AccessGate } from './app/access-gate.tsx';
import { Providers } from './app/providers.tsx';
import { AppRoutes } from './app/routes.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');

createRoot(container).render(
  <StrictMode>
    <Providers>
      <AccessGate>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AccessGate>
    </Providers>
  </StrictMode>,
);
