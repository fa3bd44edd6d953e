import './lib/no-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/App.tsx';
import { AppProviders } from './app/providers.tsx';
import { preloadSignedIn } from './app/screens.tsx';
import { sessionStore } from './lib/session.ts';

if (sessionStore.get()) preloadSignedIn(window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <AppProviders>
        <App />
      </AppProviders>
    </BrowserRouter>
  </StrictMode>,
);
