import { startTransition, Suspense, useState } from "react";
import { Badge, Button, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useMutation } from "react-relay";
import { resultError } from "../../features/admin/mutationResult.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage, EmptyLine, Panel } from "../../ui/admin/AdminPage.tsx";
import { LoadingState } from "../../ui/StatusStates.tsx";
import type { JobsRouteQuery, JobRunState } from "./__generated__/JobsRouteQuery.graphql.ts";
import type { JobsRouteRetryMutation } from "./__generated__/JobsRouteRetryMutation.graphql.ts";
import type { JobsRouteRunNowMutation } from "./__generated__/JobsRouteRunNowMutation.graphql.ts";

/** What each queue does, in the product's words; a queue not listed shows its name. */
const QUEUE_TITLES: Record<string, string> = {
  "billing-renewals": "Billing renewals",
  "events-prune": "Event retention (daily)",
  "fulfilment-freeze": "Packing snapshots (hourly and after renewals)",
  "mail-dispatch": "Email planning (every few seconds)",
  "mail-send": "Email delivery (one run per message)",
  "mail-reminders": "Email reminders and digests (hourly)",
  "payouts-sandbox": "Sandbox payouts (hourly)",
  "payments-reconcile": "Payment reconciliation (daily)",
};

const OUTCOMES: Record<JobRunState, { label: string; palette: string }> = {
  CREATED: { label: "Queued", palette: "gray" },
  RETRY: { label: "Retrying", palette: "orange" },
  ACTIVE: { label: "Running", palette: "blue" },
  COMPLETED: { label: "Completed", palette: "green" },
  CANCELLED: { label: "Cancelled", palette: "gray" },
  FAILED: { label: "Failed", palette: "red" },
  "%future added value": { label: "Unknown", palette: "gray" },
};

// The viewer's own time zone (the browser's), named in the page's description; 24-hour times keep the columns short.
const viewerTimeZone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
const dateTime = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
const dayAndTime = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const timeOnly = new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const dayKey = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" });
const when = (iso: string) => dateTime.format(new Date(iso));
/** "10:00–11:06" within one day, "Nov 26, 23:10–Nov 27, 01:00" across days, "10:00" within a minute (the viewer's zone). */
function span(fromIso: string, toIso: string): string {
  const from = new Date(fromIso);
  const to = new Date(toIso);
  const format = dayKey.format(from) === dayKey.format(to) ? timeOnly : dayAndTime;
  const [first, last] = [format.format(from), format.format(to)];
  return first === last ? first : `${first}–${last}`;
}
const duration = (ms: number | null | undefined) => (ms == null ? "" : ms < 1000 ? `${ms} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`);

/** /admin/jobs (administrators): each job queue's recent runs, their outcome and counts, and a retry for failed ones. */
export default function JobsRoute() {
  const [fetchKey, setFetchKey] = useState(0);
  const refresh = () => startTransition(() => setFetchKey((n) => n + 1));
  return (
    <AdminPage
      title="Jobs"
      description={`Background work shared by every server process: renewal passes, packing snapshots, email and the pruning of old events, with their retries and failures. Runs in a row that found nothing due are folded into one line. Times are in your time zone (${viewerTimeZone}).`}
      actions={
        <Button variant="outline" onClick={refresh}>
          Refresh
        </Button>
      }
    >
      <Suspense fallback={<LoadingState label="Loading jobs…" />}>
        <JobQueues fetchKey={fetchKey} onChanged={refresh} />
      </Suspense>
    </AdminPage>
  );
}

function JobQueues({ fetchKey, onChanged }: { fetchKey: number; onChanged: () => void }) {
  const { jobQueues } = useRouteQuery<JobsRouteQuery>(
    graphql`
      query JobsRouteQuery {
        jobQueues {
          queue
          runnable
          runs {
            id
            state
            foldedRuns
            firstCreatedAt
            createdAt
            startedAt
            durationMs
            retryCount
            retryLimit
            error
            counts {
              name
              value
            }
          }
        }
      }
    `,
    {},
    { fetchKey: fetchKey || undefined, fetchPolicy: "store-and-network" },
  );
  if (jobQueues.length === 0) return <EmptyLine>No job queues</EmptyLine>;
  return (
    <Stack gap="6">
      {jobQueues.map((q) => (
        <Panel key={q.queue} title={QUEUE_TITLES[q.queue] ?? q.queue} actions={q.runnable && <RunNowButton queue={q.queue} onQueued={onChanged} />}>
          {q.runs.length === 0 ? (
            <EmptyLine>No runs yet</EmptyLine>
          ) : (
            <Table.ScrollArea tabIndex={0} role="region" aria-label={`${QUEUE_TITLES[q.queue] ?? q.queue} runs`}>
              <Table.Root size="sm">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>Outcome</Table.ColumnHeader>
                    <Table.ColumnHeader>Queued</Table.ColumnHeader>
                    <Table.ColumnHeader>Started</Table.ColumnHeader>
                    <Table.ColumnHeader>Duration</Table.ColumnHeader>
                    <Table.ColumnHeader>Attempts</Table.ColumnHeader>
                    <Table.ColumnHeader>Counts</Table.ColumnHeader>
                    <Table.ColumnHeader>Error</Table.ColumnHeader>
                    <Table.ColumnHeader />
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {q.runs.map((run) => {
                    const outcome = OUTCOMES[run.state];
                    if (run.foldedRuns > 1)
                      return (
                        <Table.Row key={run.id}>
                          <Table.Cell>
                            <Badge colorPalette={outcome.palette}>{outcome.label}</Badge>
                          </Table.Cell>
                          <Table.Cell colSpan={7} color="fg.muted">
                            Nothing due ×{run.foldedRuns}, {span(run.firstCreatedAt, run.createdAt)}
                          </Table.Cell>
                        </Table.Row>
                      );
                    const counts = run.counts.filter((c) => c.value !== 0);
                    return (
                      <Table.Row key={run.id}>
                        <Table.Cell>
                          <Badge colorPalette={outcome.palette}>{outcome.label}</Badge>
                        </Table.Cell>
                        <Table.Cell whiteSpace="nowrap">{when(run.createdAt)}</Table.Cell>
                        <Table.Cell whiteSpace="nowrap">{run.startedAt ? when(run.startedAt) : ""}</Table.Cell>
                        <Table.Cell>{duration(run.durationMs)}</Table.Cell>
                        <Table.Cell>
                          {run.retryCount + 1} of {run.retryLimit + 1}
                        </Table.Cell>
                        <Table.Cell>{run.counts.length === 0 ? "" : counts.length === 0 ? "nothing due" : counts.map((c) => `${c.name} ${c.value}`).join(" · ")}</Table.Cell>
                        <Table.Cell maxW="sm">
                          <Text color="red.700" lineClamp={3} title={run.error ?? undefined}>
                            {run.error}
                          </Text>
                        </Table.Cell>
                        <Table.Cell>{run.state === "FAILED" && <RetryButton queue={q.queue} id={run.id} onRetried={onChanged} />}</Table.Cell>
                      </Table.Row>
                    );
                  })}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
          )}
        </Panel>
      ))}
    </Stack>
  );
}

function RunNowButton({ queue, onQueued }: { queue: string; onQueued: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [commit, busy] = useMutation<JobsRouteRunNowMutation>(graphql`
    mutation JobsRouteRunNowMutation($queue: String!) {
      runJobNow(queue: $queue) {
        __typename
        ... on RunJobNowSuccess {
          data {
            id
            state
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const run = () =>
    commit({
      variables: { queue },
      onCompleted: ({ runJobNow }) => {
        const failure = resultError(runJobNow);
        setError(failure);
        if (!failure) onQueued();
      },
      onError: (e) => setError(e.message),
    });
  return (
    <Stack gap="1" align="flex-end">
      <Button size="sm" variant="outline" onClick={run} loading={busy} aria-label={`Run now: ${QUEUE_TITLES[queue] ?? queue}`}>
        Run now
      </Button>
      {error && (
        <Text color="red.600" role="alert" fontSize="sm">
          {error}
        </Text>
      )}
    </Stack>
  );
}

function RetryButton({ queue, id, onRetried }: { queue: string; id: string; onRetried: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [commit, busy] = useMutation<JobsRouteRetryMutation>(graphql`
    mutation JobsRouteRetryMutation($queue: String!, $id: ID!) {
      retryJobRun(queue: $queue, id: $id) {
        __typename
        ... on RetryJobRunSuccess {
          data {
            id
            state
            error
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const retry = () =>
    commit({
      variables: { queue, id },
      onCompleted: ({ retryJobRun }) => {
        const failure = resultError(retryJobRun);
        if (failure) return setError(failure);
        onRetried();
      },
      onError: (e) => setError(e.message),
    });
  return (
    <Stack gap="1">
      <Button size="xs" colorPalette="orange" onClick={retry} loading={busy}>
        Retry
      </Button>
      {error && (
        <Text color="red.600" role="alert" fontSize="sm">
          {error}
        </Text>
      )}
    </Stack>
  );
}
