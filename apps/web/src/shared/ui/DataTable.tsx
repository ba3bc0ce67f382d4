import {
  Center,
  Checkbox,
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
import { LoadFailed } from './LoadFailed.tsx';

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
  /** Row selection (checkboxes in a first column); the selection may span pages: it is a set of row ids. */
  selection?: TableSelection<Row>;
};

export type TableSelection<Row> = {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** Accessible name of a row's checkbox, e.g. "Select press-01". */
  rowLabel: (row: Row) => string;
  /** Accessible name of the header checkbox, e.g. "Select every device on this page". */
  pageLabel: string;
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
  const pageRowIds = table.getRowModel().rows.map((row) => row.id);

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
        <LoadFailed
          title={t('table.loadFailed')}
          message={describeError(t, props.query.error)}
          onRetry={() => void props.query.refetch()}
        />
      ) : (
        <Table.ScrollContainer minWidth={600} maxHeight="70vh">
          <Table stickyHeader highlightOnHover aria-label={props.label} aria-busy={props.query.isFetching}>
            <Table.Thead>
              {table.getHeaderGroups().map((group) => (
                <Table.Tr key={group.id}>
                  {props.selection && (
                    <Table.Th w={40}>
                      <SelectPage selection={props.selection} rowIds={pageRowIds} />
                    </Table.Th>
                  )}
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
                <Table.Tr
                  key={row.id}
                  data-row-id={row.id}
                  bg={
                    props.selection?.selected.has(row.id) ? 'var(--mantine-primary-color-light)' : undefined
                  }
                >
                  {props.selection && (
                    <Table.Td w={40}>
                      <Checkbox
                        aria-label={props.selection.rowLabel(row.original)}
                        checked={props.selection.selected.has(row.id)}
                        onChange={(event) => {
                          const selection = props.selection;
                          if (!selection) return;
                          const next = new Set(selection.selected);
                          if (event.currentTarget.checked) next.add(row.id);
                          else next.delete(row.id);
                          selection.onChange(next);
                        }}
                      />
                    </Table.Td>
                  )}
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

/** The header checkbox: selects or clears every row of the current page (rows of other pages stay as they are). */
function SelectPage<Row>({ selection, rowIds }: { selection: TableSelection<Row>; rowIds: string[] }) {
  const chosen = rowIds.filter((id) => selection.selected.has(id)).length;
  return (
    <Checkbox
      aria-label={selection.pageLabel}
      checked={rowIds.length > 0 && chosen === rowIds.length}
      indeterminate={chosen > 0 && chosen < rowIds.length}
      disabled={rowIds.length === 0}
      onChange={() => {
        const next = new Set(selection.selected);
        if (chosen === rowIds.length) for (const id of rowIds) next.delete(id);
        else for (const id of rowIds) next.add(id);
        selection.onChange(next);
      }}
    />
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
