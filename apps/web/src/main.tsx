import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';

import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';

import { createAppRouter } from './app/router';
import { loadConfig } from './lib/config';
import { queryClient } from './lib/query-client';
import { checkSession, getSession, markSessionEndedAtStartup } from './lib/session';
import { watchTheme } from './lib/theme';

async function start() {
  watchTheme();
  await loadConfig();
  // A session that appears valid (from local storage) is verified once at start-up.
  if (getSession().isAuthenticated && !(await checkSession())) markSessionEndedAtStartup(true);
  const router = createAppRouter();
  // The start-up verdict concerns the first page only.
  const unsubscribe = router.subscribe((state) => {
    if (state.initialized && state.navigation.state === 'idle') {
      markSessionEndedAtStartup(false);
      unsubscribe();
    }
  });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}

void start();
