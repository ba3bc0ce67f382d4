import type { OkBody, ThemePaths } from '@edgeport/api-client';
import {
  createTheme,
  darken,
  lighten,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from '@mantine/core';
import { answer, bearer, themeClient } from '../http/clients.ts';
import { createStore } from '../store.ts';

export type PortalTheme = OkBody<ThemePaths, '/svc/theme/theme', 'get'>;

export const DEFAULT_THEME: PortalTheme = {
  brandName: 'Edgeport',
  primaryColor: '#1c7ed6',
  logoUrl: null,
  colorScheme: 'auto',
};

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/** Mantine wants ten shades of the primary colour; the theme names one, used as shade 6. */
export function shadesOf(color: string): MantineColorsTuple {
  const base = HEX_COLOR.test(color) ? color : DEFAULT_THEME.primaryColor;
  return [
    lighten(base, 0.9),
    lighten(base, 0.75),
    lighten(base, 0.6),
    lighten(base, 0.45),
    lighten(base, 0.3),
    lighten(base, 0.15),
    base,
    darken(base, 0.15),
    darken(base, 0.3),
    darken(base, 0.45),
  ];
}

/** The fonts text falls back to while the UI font loads, or when it cannot be had. */
export const FALLBACK_FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** `uiFont`: the UI font's family once it has loaded (app/fonts/ui-font.ts). */
export function mantineThemeOf(theme: PortalTheme, uiFont?: string): MantineThemeOverride {
  const fontFamily = uiFont ? `"${uiFont}", ${FALLBACK_FONT_FAMILY}` : FALLBACK_FONT_FAMILY;
  return createTheme({
    primaryColor: 'brand',
    primaryShade: { light: 6, dark: 5 },
    colors: { brand: shadesOf(theme.primaryColor) },
    fontFamily,
    headings: { fontFamily },
    defaultRadius: 'sm',
  });
}

/** The theme the shell wears: the host's before sign-in, the organization's once inside one. */
export const portalTheme = createStore<PortalTheme>(DEFAULT_THEME);

export function applyTheme(theme: PortalTheme): void {
  portalTheme.set(theme);
  document.title = theme.brandName;
}

/** Spec 7: the theme by host name, before sign-in (public). */
export function fetchHostTheme(): Promise<PortalTheme> {
  return answer(themeClient.GET('/svc/theme/theme'));
}

/** Spec 7: the organization's theme (bearer: its permission token). */
export function fetchOrganizationTheme(organization: string, permissionToken: string): Promise<PortalTheme> {
  return answer(
    themeClient.GET('/svc/theme/{org}/theme', {
      params: { path: { org: organization } },
      headers: bearer(permissionToken),
    }),
  );
}
