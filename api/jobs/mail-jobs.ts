import type { Queue } from "pg-boss";
import { dispatchEvents, type DispatchContext } from "../mail/dispatch.ts";
import { planReminders } from "../mail/reminders.ts";
import { deliver, type SendContext } from "../mail/sender.ts";
import { MAIL_SEND_QUEUE } from "../mail/store.ts";
import type { JobDefinition, JobQueue, JobSchedule } from "../queue/job-queue.ts";

/** Reads the event outbox into messages (api/mail/dispatch.ts). */
export const MAIL_DISPATCH_QUEUE = "mail-dispatch";
/** Plans the scheduled messages: reminders, pre-charge notices, digests (api/mail/reminders.ts). */
export const MAIL_REMINDERS_QUEUE = "mail-reminders";

/** Seconds between dispatches: a receipt goes out within about this long of its event. */
const DISPATCH_EVERY_SECONDS = 5;

const dispatchQueue: Queue = {
  name: MAIL_DISPATCH_QUEUE,
  // One dispatch running and one waiting at most; each run queues the next, the minute schedule restarts the chain.
  policy: "stately",
  retryLimit: 3,
  retryDelay: 10,
  retryBackoff: true,
  // A process that dies mid-dispatch stops its heartbeat: the run is failed and retried within about a minute,
  // instead of holding the queue's one active slot (stately) until it expires.
  heartbeatSeconds: 15,
  expireInSeconds: 10 * 60,
  retentionSeconds: 60 * 60,
  deleteAfterSeconds: 24 * 60 * 60,
};

/**
 * One job per message. Temporary failures (SMTP down, 4xx) are retried after 30 s, 1, 2, 4 … minutes up to an
 * hour apart, ten times (about six hours); a send that hangs expires after 2 minutes and is retried.
 */
const sendQueue: Queue = {
  name: MAIL_SEND_QUEUE,
  retryLimit: 10,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 60 * 60,
  expireInSeconds: 2 * 60,
  deleteAfterSeconds: 7 * 24 * 60 * 60,
};

const remindersQueue: Queue = {
  name: MAIL_REMINDERS_QUEUE,
  policy: "stately",
  retryLimit: 3,
  retryDelay: 5 * 60,
  retryBackoff: true,
  expireInSeconds: 60 * 60,
  deleteAfterSeconds: 30 * 24 * 60 * 60,
};

type MailJobsContext = Omit<DispatchContext, "jobs"> & SendContext & { jobs: () => JobQueue | undefined };

/**
 * The three mail queues. `jobs` returns the running queue (the jobs insert send jobs and the next dispatch);
 * `send` overrides the send queue's retry timing (tests).
 */
export function mailJobs(ctx: MailJobsContext, opts: { send?: Partial<Omit<Queue, "name">>; dispatchEverySeconds?: number } = {}): JobDefinition[] {
  const send: Queue = { ...sendQueue, ...opts.send };
  const every = opts.dispatchEverySeconds ?? DISPATCH_EVERY_SECONDS;
  const dispatchCtx = () => ({ db: ctx.db, clock: ctx.clock, config: ctx.config, jobs: ctx.jobs() });
  return [
    {
      queue: dispatchQueue,
      async run(_job, signal) {
        try {
          return await dispatchEvents(dispatchCtx(), signal);
        } finally {
          if (!signal.aborted) await ctx.jobs()?.boss.send(MAIL_DISPATCH_QUEUE, {}, { startAfter: every });
        }
      },
    },
    {
      queue: send,
      // A few sends at once per process, as many as the SMTP pool's connections.
      concurrency: 3,
      // A renewal run's receipts are thousands of jobs: no poll interval between them while a backlog waits.
      burstWhenReadyExceeds: 3,
      // Each job is one message (its id in the data): nothing to run without one.
      runByHand: false,
      async run(job) {
        const { messageId } = job.data as { messageId: number };
        const outcome = await deliver(ctx, messageId, { lastAttempt: job.retryCount >= (send.retryLimit ?? 0) });
        return { messageId, outcome };
      },
    },
    {
      queue: remindersQueue,
      run: (_job, signal) => planReminders(dispatchCtx(), signal).then((r) => ({ ...r })),
    },
  ];
}

/** The dispatch chain's safety net every minute; reminders hourly at :05 (each business's "today" is its own). */
export const mailSchedules: JobSchedule[] = [
  { queue: MAIL_DISPATCH_QUEUE, cron: "* * * * *" },
  { queue: MAIL_REMINDERS_QUEUE, cron: "5 * * * *" },
];
