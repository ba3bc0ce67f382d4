import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../http/describe.ts';

/** What a server-side list is asked for: the shape of `common.PageQuery`. */
export type PageRequest = {
  page: number;
  pageSize: number;
  search?: string;
  sort?: string;
  order?: 'asc' | 'desc';
};

export type PageResult<Row> = { items: Row[]; total: number };

type DataTableProps<Row> = {
  /** Accessible name of the table. */
  label: string;
  columns: ColumnDef<Row>[];
  request: PageRequest;
  onRequestChange: (request: PageRequest) => void;
  /** The TanStack query that loads the current page: its data, progress and error drive the table's states. */
  query: { data: PageResult<Row> | undefined; isFetching: boolean; error: unknown; refetch: () => unknown };
  /** Shown when nothing matches: say what to do next. */
  empty: ReactNode;
  rowId: (row: Row) => string;
  /** Extra controls beside the search box (filters, a "create" button). */
  toolbar?: ReactNode;
  searchable?: boolean;
};

const SEARCH_DELAY_MS = 250;

/**
 * A server-paged, server-sorted table (TanStack Table in manual mode) with search, a sticky header and the loading,
 * empty and error states every list needs. Sorting a column asks the server; nothing is sorted in the browser.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { t } = useTranslation();
  const { request, onRequestChange } = props;
  const [search, setSearch] = useState(request.search ?? '');
  const sorting: SortingState = request.sort ? [{ id: request.sort, desc: request.order === 'desc' }] : [];

  useEffect(() => {
    if ((request.search ?? '') === search) return;
    const timer = setTimeout(
      () => onRequestChange({ ...request, search: search || undefined, page: 0 }),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [search, request, onRequestChange]);

  const table = useReactTable({
    data: props.query.data?.items ?? [],
    columns: props.columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: props.rowId,
    manualSorting: true,
    manualPagination: true,
    state: { sorting },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      onRequestChange({
        ...request,
        page: 0,
        sort: first?.id,
        order: first ? (first.desc ? 'desc' : 'asc') : undefined,
      });
    },
  });

  const pages = Math.max(1, Math.ceil((props.query.data?.total ?? 0) / request.pageSize));

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        {props.searchable !== false && (
          <TextInput
            aria-label={t('table.search')}
            placeholder={t('table.search')}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            w={280}
          />
        )}
        <Group gap="xs">{props.toolbar}</Group>
      </Group>
      {props.query.error !== null && props.query.error !== undefined ? (
        <Alert color="red" title={t('table.loadFailed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{describeError(t, props.query.error)}</Text>
            <Button size="xs" variant="light" onClick={() => void props.query.refetch()}>
              {t('common.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Table.ScrollContainer minWidth={600} maxHeight="70vh">
          <Table stickyHeader highlightOnHover aria-label={props.label} aria-busy={props.query.isFetching}>
            <Table.Thead>
              {table.getHeaderGroups().map((group) => (
                <Table.Tr key={group.id}>
                  {group.headers.map((header) => (
                    <Table.Th key={header.id} aria-sort={ariaSort(header.column.getIsSorted())}>
                      {header.column.getCanSort() ? (
                        <UnstyledButton onClick={header.column.getToggleSortingHandler()} fw={600}>
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          {sortMark(header.column.getIsSorted())}
                        </UnstyledButton>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                    </Table.Th>
                  ))}
                </Table.Tr>
              ))}
            </Table.Thead>
            <Table.Tbody>
              {table.getRowModel().rows.map((row) => (
                <Table.Tr key={row.id} data-row-id={row.id}>
                  {row.getVisibleCells().map((cell) => (
                    <Table.Td key={cell.id}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {props.query.isFetching && (
            <Center p="md">
              <Loader size="sm" aria-label={t('common.loading')} />
            </Center>
          )}
          {!props.query.isFetching && props.query.data?.items.length === 0 && (
            <Center p="lg" data-testid="table-empty">
              {props.empty}
            </Center>
          )}
        </Table.ScrollContainer>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('table.total', { count: props.query.data?.total ?? 0 })}
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={request.page + 1}
            onChange={(page) => onRequestChange({ ...request, page: page - 1 })}
            getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
            getItemProps={(page) => ({ 'aria-label': t('table.page', { page }) })}
          />
        )}
      </Group>
    </Stack>
  );
}

function ariaSort(sorted: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  if (sorted === 'asc') return 'ascending';
  if (sorted === 'desc') return 'descending';
  return 'none';
}

function sortMark(sorted: false | 'asc' | 'desc'): string {
  if (sorted === 'asc') return ' ▲';
  if (sorted === 'desc') return ' ▼';
  return '';
}

/** The state a screen keeps for one paged list. */
export function usePageRequest(initial: Partial<PageRequest> = {}) {
  return useState<PageRequest>({ page: 0, pageSize: 50, ...initial });
}
