import { Box } from '@mantine/core';
import type { ReactNode } from 'react';
import type { WidgetPropsOf } from '../widget-props.ts';

/** A frame around the widgets whose parent is this group; the page that shows it lays them out inside. */
export function GroupWidget({ children }: WidgetPropsOf<'group'> & { children?: ReactNode }) {
  return (
    <Box h="100%" pos="relative" data-testid="widget-group-body">
      {children}
    </Box>
  );
}
