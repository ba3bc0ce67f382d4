import { ScrollArea, Text } from '@mantine/core';
import type { WidgetPropsOf } from '../widget-props.ts';

/**
 * The widget's text, as TEXT: one React text node (line breaks kept by CSS). Never markup, never markdown turned into
 * HTML: whatever a user typed shows literally.
 */
export function TextWidget({ widget }: WidgetPropsOf<'text'>) {
  return (
    <ScrollArea h="100%" type="auto">
      <Text
        size={widget.options.size}
        style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        data-testid="widget-text"
      >
        {widget.options.text}
      </Text>
    </ScrollArea>
  );
}
