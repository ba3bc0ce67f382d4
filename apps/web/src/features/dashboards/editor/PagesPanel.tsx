import type { Page } from '@edgeport/dashboard-schema';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Stack,
  TextInput,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { memo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './editor.module.css';

/** What the panel shows of a page. */
export type PageSummary = Pick<Page, 'id' | 'title'>;

/** Whether two lists show the same pages (ids and titles, in order). */
export function samePages(a: readonly PageSummary[], b: readonly PageSummary[]): boolean {
  return (
    a.length === b.length &&
    a.every((page, index) => page.id === b[index]?.id && page.title === b[index]?.title)
  );
}

type Props = {
  pages: readonly PageSummary[];
  rootPageId: string;
  openPageId: string;
  onOpen: (pageId: string) => void;
  onAdd: () => void;
  onRename: (pageId: string, title: string) => void;
  onDelete: (pageId: string) => void;
  onMakeRoot: (pageId: string) => void;
};

/** The dashboard's pages: open, add, rename, delete; the root page (the viewer's first) is marked. Memoized. */
export const PagesPanel = memo(function PagesPanel({
  pages,
  rootPageId,
  openPageId,
  onOpen,
  onAdd,
  onRename,
  onDelete,
  onMakeRoot,
}: Props) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState<string | null>(null);

  return (
    <Stack gap={4} data-testid="pages-panel" component="section" aria-labelledby="editor-pages-title">
      <Group justify="space-between" gap="xs">
        <Title order={3} size="h6" id="editor-pages-title">
          {t('dashboardEditor.pages.title')}
        </Title>
        <Button size="compact-xs" variant="light" onClick={onAdd} data-testid="page-add">
          {t('dashboardEditor.pages.add')}
        </Button>
      </Group>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {pages.map((page) => (
          <li key={page.id} className={classes.pageItem} data-testid={`page-row-${page.id}`}>
            {renaming === page.id ? (
              <RenameField
                title={page.title}
                onDone={(title) => {
                  setRenaming(null);
                  if (title !== undefined && title !== page.title) onRename(page.id, title);
                }}
              />
            ) : (
              <UnstyledButton
                className={classes.pageButton}
                data-active={page.id === openPageId}
                aria-current={page.id === openPageId ? 'page' : undefined}
                data-testid={`page-item-${page.id}`}
                onClick={() => onOpen(page.id)}
                onDoubleClick={() => setRenaming(page.id)}
              >
                <Group gap={4} wrap="nowrap">
                  <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    {page.title}
                  </span>
                  {page.id === rootPageId && (
                    <Badge size="xs" variant="outline" data-testid="page-root-badge">
                      {t('dashboardEditor.pages.root')}
                    </Badge>
                  )}
                </Group>
              </UnstyledButton>
            )}
            {renaming !== page.id && (
              <>
                <Tooltip label={t('dashboardEditor.pages.rename')} withArrow>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    aria-label={t('dashboardEditor.pages.renameNamed', { title: page.title })}
                    data-testid={`page-rename-${page.id}`}
                    onClick={() => setRenaming(page.id)}
                  >
                    ✎
                  </ActionIcon>
                </Tooltip>
                {page.id !== rootPageId && (
                  <Tooltip label={t('dashboardEditor.pages.makeRoot')} withArrow>
                    <ActionIcon
                      size="sm"
                      variant="subtle"
                      aria-label={t('dashboardEditor.pages.makeRootNamed', { title: page.title })}
                      data-testid={`page-make-root-${page.id}`}
                      onClick={() => onMakeRoot(page.id)}
                    >
                      ⌂
                    </ActionIcon>
                  </Tooltip>
                )}
                <Tooltip label={t('dashboardEditor.pages.delete')} withArrow>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    color="red"
                    aria-label={t('dashboardEditor.pages.deleteNamed', { title: page.title })}
                    data-testid={`page-delete-${page.id}`}
                    onClick={() => onDelete(page.id)}
                  >
                    ✕
                  </ActionIcon>
                </Tooltip>
              </>
            )}
          </li>
        ))}
      </ul>
    </Stack>
  );
});

/** An inline title field: Enter or leaving it keeps the title, Escape gives up. */
function RenameField({ title, onDone }: { title: string; onDone: (title: string | undefined) => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(title);
  const trimmed = value.trim();
  const error =
    trimmed === ''
      ? t('dashboardEditor.pages.titleRequired')
      : trimmed.length > 100
        ? t('dashboardEditor.pages.titleTooLong', { max: 100 })
        : undefined;
  const done = useRef(false);
  const end = (result: string | undefined) => {
    if (done.current) return;
    done.current = true;
    onDone(result);
  };
  const finish = () => end(error ? undefined : trimmed);
  return (
    <TextInput
      size="xs"
      flex={1}
      autoFocus
      value={value}
      error={error}
      aria-label={t('dashboardEditor.pages.titleLabel')}
      data-testid="page-title-input"
      onChange={(event) => setValue(event.currentTarget.value)}
      onBlur={finish}
      onKeyDown={(event) => {
        if (event.key === 'Enter') finish();
        if (event.key === 'Escape') end(undefined);
      }}
    />
  );
}
