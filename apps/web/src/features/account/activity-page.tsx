import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { ACTIVITY_ACTIONS, ACTIVITY_PAGE_SIZE } from '@rfckit/standards';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';

import { ActivityActionBadge, activityActionLabels } from '../../components/activity-action-badge.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { api, ApiError, NETWORK_ERROR_MESSAGE, UNEXPECTED_ERROR_MESSAGE } from '../../lib/api.ts';
import { saveFile } from '../../lib/save-file.ts';
import { useSession } from '../../lib/session.ts';
import { pageWindow } from './activity-pagination.ts';
import {
  activityApiQuery,
  NO_FILTERS,
  readActivitySearch,
  writeActivitySearch,
  type ActivityFilterValues,
} from './activity-search.ts';

// spec part 1 §8
const ERROR_TITLE = 'Error Loading Activities';
const FETCH_ACTIVITIES_FAILED = 'Failed to fetch activities';
const LOADING_FAILED = 'Error loading activity data';
const FETCH_ACTIVITY_FAILED = 'Failed to fetch activity';
const EMPTY_TITLE = 'No Activity Records';
const EMPTY_TEXT = 'No activity records found for the current filters.';
const EXPORT_FAILED = 'Failed to export activity. Please try again.';
const DATE_ORDER = 'The end date must be on or after the start date';

interface ActivityRecord {
  id: string;
  action: string;
  username: string | null;
  organisation_name: string;
  created_at: string;
  description: string;
  details?: string;
  ip_address: string | null;
}

interface ActivityPage {
  activities: ActivityRecord[];
  totalPages: number;
  totalRecords: number;
}

interface ActivitySummary {
  totalRecords: number;
  last24Hours: number;
  logins: number;
  users: number;
}

interface ActivityUser {
  id: string;
  email: string;
  name: string | null;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const numberFormat = new Intl.NumberFormat();

/**
 * Spec part 1 §8: a server that answers with a failure gives 'Failed to fetch activities'; an
 * exception on the way (no answer, an unreadable one) 'Error loading activity data'.
 */
function listErrorText(error: unknown): string {
  if (!(error instanceof ApiError)) return LOADING_FAILED;
  if (error.status === 0 || error.code === 'BAD_RESPONSE' || error.code === 'NETWORK_ERROR')
    return LOADING_FAILED;
  return FETCH_ACTIVITIES_FAILED;
}

/** The server's own explanation, when it gave one worth showing beside the spec's text. */
function serverDetail(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  return error.message === NETWORK_ERROR_MESSAGE || error.message === UNEXPECTED_ERROR_MESSAGE
    ? null
    : error.message;
}

function Counter({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card withBorder padding="md" component="li">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {value === undefined ? '–' : numberFormat.format(value)}
      </Text>
    </Card>
  );
}

function userLabel(user: ActivityUser): string {
  return user.name === null ? user.email : `${user.name} (${user.email})`;
}

interface FilterFormProps {
  initial: ActivityFilterValues;
  users: ActivityUser[] | undefined;
  usersPending: boolean;
  onApply: (values: ActivityFilterValues) => void;
  onClear: () => void;
  /** Further buttons beside Apply and Clear. */
  children: ReactNode;
}

/** Date from/to, user and action; edits a draft until applied. */
function FilterForm({ initial, users, usersPending, onApply, onClear, children }: FilterFormProps) {
  const [draft, setDraft] = useState<ActivityFilterValues>(initial);
  const [dateError, setDateError] = useState<string | null>(null);

  function set(name: keyof ActivityFilterValues, value: string) {
    setDraft((current) => ({ ...current, [name]: value }));
    if (name === 'dateFrom' || name === 'dateTo') setDateError(null);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (draft.dateFrom !== '' && draft.dateTo !== '' && draft.dateTo < draft.dateFrom) {
      setDateError(DATE_ORDER);
      return;
    }
    onApply(draft);
  }

  function clear() {
    setDraft(NO_FILTERS);
    setDateError(null);
    onClear();
  }

  const userOptions = [
    { value: '', label: 'All users' },
    ...(users ?? []).map((option) => ({ value: option.id, label: userLabel(option) })),
    // a user named in the URL whom the list does not (yet) hold stays selectable
    ...(draft.userId !== '' && !(users ?? []).some((option) => option.id === draft.userId)
      ? [{ value: draft.userId, label: usersPending ? 'Loading users...' : 'Unknown user' }]
      : []),
  ];

  return (
    <form onSubmit={submit} noValidate aria-describedby="activity-filters-hint">
      <Text id="activity-filters-hint" size="sm" c="dimmed" mb="sm">
        Days are in your time zone and include the whole day.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <TextInput
          type="date"
          label="From date"
          value={draft.dateFrom}
          max={draft.dateTo === '' ? undefined : draft.dateTo}
          onChange={(event) => set('dateFrom', event.currentTarget.value)}
        />
        <TextInput
          type="date"
          label="To date"
          value={draft.dateTo}
          min={draft.dateFrom === '' ? undefined : draft.dateFrom}
          error={dateError}
          onChange={(event) => set('dateTo', event.currentTarget.value)}
        />
        <NativeSelect
          label="User"
          value={draft.userId}
          onChange={(event) => set('userId', event.currentTarget.value)}
          data={userOptions}
        />
        <NativeSelect
          label="Action"
          value={draft.action}
          onChange={(event) => set('action', event.currentTarget.value)}
          data={[
            { value: '', label: 'All actions' },
            ...ACTIVITY_ACTIONS.map((action) => ({ value: action, label: activityActionLabels[action] })),
          ]}
        />
      </SimpleGrid>
      <Group mt="md" gap="sm">
        <Button type="submit">Apply filters</Button>
        <Button type="button" variant="default" onClick={clear}>
          Clear filters
        </Button>
        {children}
      </Group>
    </form>
  );
}

interface ExportOutcome {
  kind: 'done' | 'failed';
  message: string;
}

/**
 * Activity History (spec part 1 §2, §4, §8, §9): counters, filter form, a page of 20 records
 * and up to 5 page buttons centred on the current page. Page and filters live in the URL.
 */
export default function ActivityPage() {
  useDocumentTitle('Activity History · rfckit');
  const session = useSession();
  const user = session.status === 'authenticated' ? session.user : null;
  const isAdmin = user?.role === 'admin';
  const [searchParams, setSearchParams] = useSearchParams();
  const search = readActivitySearch(searchParams);
  const filters: ActivityFilterValues = {
    dateFrom: search.dateFrom,
    dateTo: search.dateTo,
    userId: search.userId,
    action: search.action,
  };
  const searchKey = writeActivitySearch(search).toString();

  const filtersKey = JSON.stringify(filters);

  const list = useQuery({
    queryKey: ['activity', 'list', user?.id, searchKey],
    queryFn: ({ signal }) =>
      api.get<ActivityPage>(`/v1/organisation/activity${activityApiQuery(filters, search.page)}`, signal),
    enabled: user !== null,
    // the old page stays on screen, marked busy, while the next loads
    placeholderData: keepPreviousData,
  });
  const summary = useQuery({
    queryKey: ['activity', 'summary', user?.id, filtersKey],
    queryFn: ({ signal }) =>
      api.get<ActivitySummary>(`/v1/organisation/activity/summary${activityApiQuery(filters)}`, signal),
    enabled: user !== null,
  });
  const users = useQuery({
    queryKey: ['activity', 'users', user?.id],
    queryFn: ({ signal }) => api.get<{ users: ActivityUser[] }>('/v1/organisation/activity/users', signal),
    enabled: user !== null,
  });

  const [exporting, setExporting] = useState(false);
  const [exportOutcome, setExportOutcome] = useState<ExportOutcome | null>(null);

  function go(next: ActivityFilterValues, page: number) {
    setSearchParams(writeActivitySearch({ ...next, page }));
  }

  // applying or clearing filters returns to page 1 (spec part 1 §4)
  function apply(values: ActivityFilterValues) {
    setExportOutcome(null);
    go(values, 1);
  }

  function clear() {
    setExportOutcome(null);
    go(NO_FILTERS, 1);
  }

  // exportCsv shows its own outcome: the click need not wait for it
  async function exportCsv() {
    setExporting(true);
    setExportOutcome(null);
    try {
      const file = await api.download(`/v1/organisation/activity/export${activityApiQuery(filters)}`);
      const fileName = file.fileName ?? 'activity.csv';
      saveFile(file.blob, fileName);
      const rows = Number(file.headers.get('X-Export-Rows') ?? 0);
      const total = Number(file.headers.get('X-Total-Records') ?? rows);
      const truncated = file.headers.get('X-Export-Truncated') === 'true';
      setExportOutcome({
        kind: 'done',
        message: truncated
          ? `Exported the newest ${numberFormat.format(rows)} of ${numberFormat.format(total)} records to ${fileName}: narrow the filters to export the rest.`
          : `Exported ${numberFormat.format(rows)} ${rows === 1 ? 'record' : 'records'} to ${fileName}.`,
      });
    } catch (error) {
      setExportOutcome({ kind: 'failed', message: serverDetail(error) ?? EXPORT_FAILED });
    } finally {
      setExporting(false);
    }
  }

  const data = list.data;
  const totalPages = data?.totalPages ?? 0;
  const buttons = pageWindow(search.page, totalPages);
  const firstShown = (search.page - 1) * ACTIVITY_PAGE_SIZE + 1;
  const filtered = Object.values(filters).some((value) => value !== '');

  return (
    <Stack gap="xl" py="lg">
      <Stack gap={4}>
        <Title order={1}>Activity History</Title>
        <Text c="dimmed">
          {isAdmin
            ? `Sign-ins, sign-outs and every change made in ${user?.organisation.name ?? 'your organisation'}.`
            : 'Your sign-ins, sign-outs and changes.'}
        </Text>
      </Stack>

      <section aria-labelledby="activity-counters">
        <VisuallyHidden>
          <h2 id="activity-counters">{filtered ? 'Counters for the current filters' : 'Counters'}</h2>
        </VisuallyHidden>
        {summary.isError ? (
          <Alert color="red" title={ERROR_TITLE}>
            {FETCH_ACTIVITY_FAILED}
          </Alert>
        ) : (
          <SimpleGrid
            cols={{ base: 2, md: 4 }}
            spacing="md"
            component="ul"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-busy={summary.isFetching}
          >
            <Counter label="Total records" value={summary.data?.totalRecords} />
            <Counter label="Last 24 hours" value={summary.data?.last24Hours} />
            <Counter label="Sign-ins" value={summary.data?.logins} />
            <Counter label="Users" value={summary.data?.users} />
          </SimpleGrid>
        )}
      </section>

      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="activity-filters">
        <Title order={2} size="h3" id="activity-filters" mb="md">
          Filters
        </Title>
        {/* remounted when the URL's filters change (back/forward), so the form shows them */}
        <FilterForm
          key={filtersKey}
          initial={filters}
          users={users.data?.users}
          usersPending={users.isPending}
          onApply={apply}
          onClear={clear}
        >
          <Button
            type="button"
            variant="light"
            onClick={() => void exportCsv()}
            loading={exporting}
            disabled={list.isError}
          >
            Export CSV
          </Button>
        </FilterForm>
        <div aria-live="polite">
          {exportOutcome !== null && (
            <Alert mt="md" color={exportOutcome.kind === 'done' ? 'green' : 'red'}>
              {exportOutcome.message}
            </Alert>
          )}
        </div>
      </Paper>

      <section aria-labelledby="activity-records">
        <Title order={2} size="h3" id="activity-records" mb="md">
          Records
        </Title>
        {list.isPending && (
          <Group gap="xs" role="status">
            <Loader size="sm" aria-hidden="true" />
            <Text size="sm">Loading activities...</Text>
          </Group>
        )}
        {list.isError && (
          <Alert color="red" title={ERROR_TITLE}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{listErrorText(list.error)}</Text>
              {serverDetail(list.error) !== null && (
                <Text size="sm" c="dimmed">
                  {serverDetail(list.error)}
                </Text>
              )}
              <Button size="xs" variant="default" onClick={() => void list.refetch()}>
                Try again
              </Button>
            </Stack>
          </Alert>
        )}
        {data !== undefined && !list.isError && data.activities.length === 0 && (
          <Paper withBorder p="xl" radius="md" ta="center">
            <Title order={3} size="h4">
              {EMPTY_TITLE}
            </Title>
            <Text c="dimmed" mt={4}>
              {EMPTY_TEXT}
            </Text>
          </Paper>
        )}
        {data !== undefined && !list.isError && data.activities.length > 0 && (
          <Stack gap="md" aria-busy={list.isFetching}>
            <Text size="sm" role="status">
              {list.isFetching
                ? 'Loading activities...'
                : `Records ${numberFormat.format(firstShown)}–${numberFormat.format(firstShown + data.activities.length - 1)} of ${numberFormat.format(data.totalRecords)}, page ${search.page} of ${data.totalPages}`}
            </Text>
            <DataTable
              label="Activity records"
              minWidth={760}
              striped
              highlightOnHover
              verticalSpacing="sm"
              style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}
              rows={data.activities}
              rowKey={(record) => record.id}
              columns={[
                {
                  header: 'Date and time',
                  cell: (record) => (
                    <time dateTime={record.created_at}>{timeFormat.format(new Date(record.created_at))}</time>
                  ),
                },
                {
                  header: 'Action',
                  cell: (record) => <ActivityActionBadge action={record.action} />,
                  cellProps: { style: { whiteSpace: 'nowrap' } },
                },
                {
                  header: 'User',
                  cell: (record) => record.username ?? '—',
                  cellProps: { style: { overflowWrap: 'anywhere' } },
                },
                {
                  header: 'Description',
                  cell: (record) => (record.description !== '' ? record.description : (record.details ?? '')),
                  cellProps: { style: { whiteSpace: 'pre-line', overflowWrap: 'anywhere' } },
                },
                {
                  header: 'IP address',
                  cell: (record) => record.ip_address ?? '—',
                  cellProps: { ff: 'monospace', fz: 'sm' },
                },
              ]}
            />
          </Stack>
        )}
        {buttons.length > 1 && !list.isError && (
          <Group component="nav" aria-label="Activity pages" gap="xs" mt="md" justify="center">
            <Button
              variant="default"
              size="sm"
              disabled={search.page <= 1}
              onClick={() => go(filters, search.page - 1)}
            >
              Previous
            </Button>
            {buttons.map((page) => (
              <Button
                key={page}
                size="sm"
                variant={page === search.page ? 'filled' : 'default'}
                aria-current={page === search.page ? 'page' : undefined}
                aria-label={`Page ${page}`}
                onClick={() => go(filters, page)}
              >
                {page}
              </Button>
            ))}
            <Button
              variant="default"
              size="sm"
              disabled={search.page >= totalPages}
              onClick={() => go(filters, search.page + 1)}
            >
              Next
            </Button>
          </Group>
        )}
      </section>
    </Stack>
  );
}
