import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CatalogueApp } from './api.ts';
import { LikeButton } from './LikeButton.tsx';
import { cheapestPlan, priceOf } from './plans.ts';

type AppCardProps = {
  app: CatalogueApp;
  installed: boolean;
  /** UPDATE organizations: may install. */
  canInstall: boolean;
  likePending: boolean;
  onLike: (app: CatalogueApp) => void;
};

/** One app of the catalogue: who makes it, what it does, its version and lowest price, likes, install or open. */
export function AppCard({ app, installed, canInstall, likePending, onLike }: AppCardProps) {
  const { t, i18n } = useTranslation();
  const cheapest = cheapestPlan(app.plans);
  const price = cheapest && priceOf(cheapest, i18n.language);
  const titleId = `store-app-${app.id}`;
  return (
    <Card
      withBorder
      padding="md"
      radius="md"
      component="article"
      aria-labelledby={titleId}
      data-testid="store-app"
      data-app={app.id}
    >
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={2} size="h4" id={titleId}>
              {app.name}
            </Title>
            {app.publisher && (
              <Text size="sm" c="dimmed">
                {t('store.card.publisher', { publisher: app.publisher })}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              {t('store.card.version', { version: app.version })}
            </Text>
          </div>
          {installed && (
            <Badge color="green" variant="light" data-testid="installed-badge" style={{ flexShrink: 0 }}>
              {t('store.card.installed')}
            </Badge>
          )}
        </Group>
        <Text size="sm" lineClamp={4} style={{ flexGrow: 1 }}>
          {app.description || t('store.card.noDescription')}
        </Text>
        <Text size="sm" fw={600} data-testid="price-from">
          {cheapest === undefined
            ? t('store.card.noPlans')
            : price === undefined
              ? app.plans.length > 1
                ? t('store.card.freeAndMore')
                : t('store.price.free')
              : t('store.card.priceFrom', { price, period: t(`store.period.${cheapest.period}`) })}
        </Text>
        <Group justify="space-between" wrap="nowrap">
          <LikeButton app={app} pending={likePending} onToggle={onLike} />
          {installed ? (
            <Button
              component={Link}
              to={`/store/container/${encodeURIComponent(app.id)}`}
              size="sm"
              aria-label={t('store.card.openLabel', { name: app.name })}
            >
              {t('store.card.open')}
            </Button>
          ) : (
            canInstall &&
            cheapest !== undefined && (
              <Button
                component={Link}
                to={`/store/install/${encodeURIComponent(app.id)}`}
                size="sm"
                variant="light"
                aria-label={t('store.card.installLabel', { name: app.name })}
              >
                {t('store.card.install')}
              </Button>
            )
          )}
        </Group>
      </Stack>
    </Card>
  );
}
