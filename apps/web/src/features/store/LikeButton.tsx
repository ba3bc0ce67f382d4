import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CatalogueApp } from './api.ts';

/** A toggle: pressed when the user likes the app; the count beside the heart is the app's like count. */
export function LikeButton({
  app,
  pending,
  onToggle,
}: {
  app: CatalogueApp;
  pending: boolean;
  onToggle: (app: CatalogueApp) => void;
}) {
  const { t, i18n } = useTranslation();
  const count = new Intl.NumberFormat(i18n.language).format(app.likeCount);
  return (
    <Button
      variant={app.liked ? 'light' : 'subtle'}
      color={app.liked ? 'red' : 'gray'}
      size="compact-sm"
      aria-pressed={app.liked}
      aria-label={t('store.like.label', { name: app.name })}
      title={t('store.like.count', { count: app.likeCount })}
      disabled={pending}
      onClick={() => onToggle(app)}
      leftSection={<span aria-hidden="true">{app.liked ? '♥' : '♡'}</span>}
      data-testid="like-button"
    >
      <span data-testid="like-count">{count}</span>
    </Button>
  );
}
