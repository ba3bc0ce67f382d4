import { Group, Image, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { useStore } from '../../shared/store.ts';
import { portalTheme } from '../../shared/theme/portal-theme.ts';

/** The organization's logo and brand name (its theme); a link home inside the shell. */
export function BrandMark({ linkHome = false }: { linkHome?: boolean }) {
  const theme = useStore(portalTheme);
  const mark = (
    <Group gap="xs" wrap="nowrap" data-testid="brand">
      {theme.logoUrl && <Image src={theme.logoUrl} alt="" h={28} w="auto" fit="contain" />}
      <Text fw={700} size="lg" c="var(--mantine-primary-color-filled)" truncate>
        {theme.brandName}
      </Text>
    </Group>
  );
  return linkHome ? (
    <UnstyledButton component={Link} to="/home">
      {mark}
    </UnstyledButton>
  ) : (
    mark
  );
}
