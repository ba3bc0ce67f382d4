import type { AppAbility } from '@edgeport/permissions';
import { useTranslation } from 'react-i18next';
import { RouteTabs } from '../../shared/ui/RouteTabs.tsx';
import { useOrganizationApi } from '../use-organization-api.ts';

type SectionTab = { path: string; id: string; visible?: (ability: AppAbility) => boolean };

/** Spec 2's screens with sub-routes, shown as tabs; a tab is listed only when its page may be opened. */
const SECTIONS = {
  permission: [
    { path: '/permission', id: 'users', visible: (ability) => ability.can('READ', 'users') },
    { path: '/permission/groups', id: 'groups', visible: (ability) => ability.can('READ', 'usergroups') },
    { path: '/permission/roles', id: 'roles', visible: (ability) => ability.can('READ', 'roles') },
  ],
  roles: [
    { path: '/roles', id: 'general' },
    { path: '/roles/data', id: 'data' },
    { path: '/roles/device', id: 'device' },
  ],
} satisfies Record<string, SectionTab[]>;

export type Section = keyof typeof SECTIONS;

/** The tab row of a section (texts under `sections.{section}.{id}` in the shell's locale files). */
export function SectionTabs({ section }: { section: Section }) {
  const { t } = useTranslation();
  const { ability } = useOrganizationApi();
  const tabs: SectionTab[] = SECTIONS[section];
  return (
    <RouteTabs
      label={t(`sections.${section}.label`)}
      tabs={tabs.map((tab) => ({
        path: tab.path,
        label: t(`sections.${section}.${tab.id}`),
        hidden: tab.visible ? !tab.visible(ability) : false,
      }))}
    />
  );
}
