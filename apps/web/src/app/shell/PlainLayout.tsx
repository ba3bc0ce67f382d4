import { Box, Container, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { currentSession } from '../../auth/session.ts';
import { BrandMark } from './BrandMark.tsx';
import { LanguagePicker } from './LanguagePicker.tsx';
import classes from './shell.module.css';
import { UserMenu } from './UserMenu.tsx';

/** The frame of the screens outside an organization: selector, agreements, sign-in and registration. */
export function PlainLayout({ children, size = 'sm' }: { children: ReactNode; size?: 'sm' | 'md' }) {
  const session = currentSession();
  return (
    <Box mih="100vh" className={classes.plain}>
      <header className={classes.topbar}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <BrandMark />
          <Group gap="xs" wrap="nowrap">
            <LanguagePicker />
            {session && <UserMenu session={session} />}
          </Group>
        </Group>
      </header>
      <Container size={size} py="xl" component="main" id="main">
        {children}
      </Container>
    </Box>
  );
}
