import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { STORAGE_KEYS } from '../shared/storage/keys.ts';
import { useStore } from '../shared/store.ts';
import { mantineThemeOf, portalTheme } from '../shared/theme/portal-theme.ts';
import { UI_FONT, uiFontState } from './fonts/ui-font.ts';

const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.colorScheme });

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});

/** Theme (the organization's colours, light or dark), data fetching, notifications and modals. */
export function Providers({ children }: { children: ReactNode }) {
  const theme = useStore(portalTheme);
  const uiFontActive = useStore(uiFontState) === 'active';
  const mantineTheme = useMemo(
    () => mantineThemeOf(theme, uiFontActive ? UI_FONT.family : undefined),
    [theme, uiFontActive],
  );
  return (
    <MantineProvider
      theme={mantineTheme}
      defaultColorScheme={theme.colorScheme}
      colorSchemeManager={colorSchemeManager}
    >
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications position="top-right" zIndex={1100} />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
