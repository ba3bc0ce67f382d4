import { Button, Group, Loader, Menu, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { fetchVersions } from './api.ts';
import { EDITOR_QUERY_KEY } from './query-keys.ts';

/** The dashboard's versions: open one in the viewer, or edit from it. Memoized (the toolbar renders often). */
export const VersionsMenu = memo(function VersionsMenu({ dashboardId }: { dashboardId: string }) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [opened, setOpened] = useState(false);
  const versions = useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, dashboardId, 'versions'],
    queryFn: async ({ signal }) => fetchVersions(await token(), dashboardId, signal),
    enabled: opened,
    staleTime: 0,
  });
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });

  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" data-testid="editor-versions">
          {t('dashboardEditor.toolbar.versions')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="editor-versions-menu" mah={360} style={{ overflowY: 'auto' }}>
        {versions.isPending && (
          <Group gap="xs" p="xs" aria-busy="true">
            <Loader size="xs" />
            <Text size="sm">{t('common.loading')}</Text>
          </Group>
        )}
        {versions.isError && (
          <Text size="sm" c="red" p="xs" role="alert">
            {describeError(t, versions.error)}
          </Text>
        )}
        {versions.data?.map((version, index) => (
          <div key={version.version} data-testid={`editor-version-${version.version}`}>
            {index > 0 && <Menu.Divider />}
            <Menu.Label>
              {t('dashboardEditor.versions.item', {
                version: version.version,
                date: date.format(new Date(version.createdAt)),
              })}
              {version.current && ` · ${t('dashboardEditor.versions.current')}`}
            </Menu.Label>
            <Menu.Item component={Link} to={`/dashboards/${dashboardId}?version=${version.version}`}>
              {t('dashboardEditor.versions.view')}
            </Menu.Item>
            <Menu.Item component={Link} to={`/dashboards/${dashboardId}/edit?version=${version.version}`}>
              {t('dashboardEditor.versions.editFrom')}
            </Menu.Item>
          </div>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
});
