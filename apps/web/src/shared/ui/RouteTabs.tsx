import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';

export type RouteTab = { path: string; label: string; hidden?: boolean };

/** Tabs whose panels are routes (spec 2 sub-routes such as /permission, /permission/groups): the address decides. */
export function RouteTabs({ tabs, label }: { tabs: RouteTab[]; label: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const visible = tabs.filter((tab) => !tab.hidden);
  return (
    <Tabs value={location.pathname} onChange={(path) => path && void navigate(path)} keepMounted={false}>
      <Tabs.List aria-label={label}>
        {visible.map((tab) => (
          <Tabs.Tab key={tab.path} value={tab.path}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
