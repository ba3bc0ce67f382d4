import { Loader } from '@mantine/core';
import type { CSSProperties } from 'react';
import classes from './widget-frame.module.css';

/** Mantine's extra-small oval Loader with a gap after it, as the element the Loader component renders. */
const LOADER_STYLE = {
  '--loader-size': 'var(--loader-size-xs)',
  marginRight: 'var(--mantine-spacing-xs)',
} as CSSProperties;
const LOADER_CLASS = `${Loader.classes.root} ${Loader.classes.ovalLoader}`;

/**
 * What a widget shows instead of its content: a short message, centred and dimmed, or a loader. Plain elements with
 * the look of Mantine's Center, dimmed Text and Loader: a dashboard may show a hundred of them at once.
 */
export function Placeholder({ message, loading = false }: { message: string; loading?: boolean }) {
  return (
    <div className={classes.center} data-testid="widget-placeholder" aria-busy={loading || undefined}>
      {loading && <span className={LOADER_CLASS} style={LOADER_STYLE} />}
      <p className={classes.message}>{message}</p>
    </div>
  );
}
