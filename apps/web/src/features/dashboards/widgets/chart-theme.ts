import { useComputedColorScheme, useMantineTheme } from '@mantine/core';
import { useMemo } from 'react';

export type ChartColors = { axis: string; grid: string; series: readonly string[]; scheme: 'light' | 'dark' };

const SERIES_COLORS = ['orange', 'teal', 'grape', 'cyan', 'yellow', 'lime', 'red'] as const;

/**
 * The charts' colours from the Mantine theme and the computed colour scheme (uPlot draws on a canvas and cannot read
 * CSS variables): the first series in the primary colour, axes and grid in the theme's greys, lighter shades in dark
 * mode. Changes with the theme, so charts are redrawn in the new colours.
 */
export function useChartColors(): ChartColors {
  const theme = useMantineTheme();
  const scheme = useComputedColorScheme('light');
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
