import { Box } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Placeholder } from '../Placeholder.tsx';
import type { WidgetPropsOf } from '../widget-props.ts';
import { safeFrameUrl } from './safe-url.ts';

/**
 * Another web page in a sandbox: scripts and forms only — never allow-same-origin together with scripts (the page
 * could lift its own sandbox), no top navigation, no popups — and no referrer. Only http(s) addresses are shown.
 */
export function IframeWidget({ widget, runtime }: WidgetPropsOf<'iframe'>) {
  const { t } = useTranslation();
  const url = safeFrameUrl(widget.options.url);
  if (!url) return <Placeholder message={t('dashboardWidgets.iframe.refused')} />;
  return (
    <Box h="100%" style={{ pointerEvents: runtime.mode === 'edit' ? 'none' : undefined }}>
      <iframe
        src={url}
        title={widget.title || t('dashboardWidgets.iframe.title')}
        sandbox="allow-scripts allow-forms"
        referrerPolicy="no-referrer"
        loading="lazy"
        style={{ border: 0, width: '100%', height: '100%', display: 'block' }}
        data-testid="widget-iframe"
      />
    </Box>
  );
}
