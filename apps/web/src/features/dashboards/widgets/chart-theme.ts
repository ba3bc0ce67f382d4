import { useMantineTheme } from '@mantine/core';
import { useMemo, useSyncExternalStore } from 'react';

export type ChartColors = { axis: string; grid: string; series: readonly string[]; scheme: 'light' | 'dark' };

const SERIES_COLORS = ['orange', 'teal', 'grape', 'cyan', 'yellow', 'lime', 'red'] as const;

/** The attribute MantineProvider keeps on the root element: the colour scheme in effect, 'light' or 'dark'. */
const SCHEME_ATTRIBUTE = 'data-mantine-color-scheme';

const schemeListeners = new Set<() => void>();
let schemeObserver: MutationObserver | undefined;

function subscribeScheme(listener: () => void): () => void {
  if (typeof MutationObserver !== 'undefined' && typeof document !== 'undefined' && !schemeObserver) {
    schemeObserver = new MutationObserver(() => {
      for (const notify of [...schemeListeners]) notify();
    });
    schemeObserver.observe(document.documentElement, {
      attributes: true,
      attributeFilter: [SCHEME_ATTRIBUTE],
    });
  }
  schemeListeners.add(listener);
  return () => schemeListeners.delete(listener);
}

function currentScheme(): 'light' | 'dark' {
  return typeof document !== 'undefined' && document.documentElement.getAttribute(SCHEME_ATTRIBUTE) === 'dark'
    ? 'dark'
    : 'light';
}

const serverScheme = (): 'light' | 'dark' => 'light';

/**
 * The colour scheme the page wears, as the CSS sees it (what Mantine's useComputedColorScheme computes, read from the
 * root element's attribute): one observer for every chart instead of media queries per chart.
 */
function useComputedScheme(): 'light' | 'dark' {
  return useSyncExternalStore(subscribeScheme, currentScheme, serverScheme);
}

/**
 * The charts' colours from the Mantine theme and the computed colour scheme (uPlot draws on a canvas and cannot read
 * CSS variables): the first series in the primary colour, axes and grid in the theme's greys, lighter shades in dark
 * mode. Changes with the theme, so charts are redrawn in the new colours.
 */
export function useChartColors(): ChartColors {
  const theme = useMantineTheme();
  const scheme = useComputedScheme();
  return useMemo(() => {
    const shade = scheme === 'dark' ? 4 : 6;
    const pick = (name: string) => theme.colors[name]?.[shade] ?? theme.colors.blue[shade];
    const primary = pick(theme.primaryColor);
    return {
      axis: scheme === 'dark' ? theme.colors.dark[1] : theme.colors.gray[7],
      grid: scheme === 'dark' ? 'rgba(255, 255, 255, 0.08)' : 'rgba(0, 0, 0, 0.08)',
      series: [primary, ...SERIES_COLORS.map(pick)],
      scheme,
    };
  }, [theme, scheme]);
}
