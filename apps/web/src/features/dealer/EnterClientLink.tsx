import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { currentPortal } from '../../app/portal.ts';

/**
 * A link to one of the client organization's own screens (`?org=` enters it). The user's organization list was
 * loaded at sign-in, before a client created since existed: it is loaded again before the switch.
 */
export function EnterClientLink({
  clientId,
  path,
  children,
}: {
  clientId: string;
  path: string;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const to = `${path}?org=${encodeURIComponent(clientId)}`;
  return (
    <Anchor
      component={Link}
      to={to}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        currentPortal()
          .organizations.organizations({ reload: true })
          .catch(() => undefined)
          .finally(() => void navigate(to));
      }}
    >
      {children}
    </Anchor>
  );
}
