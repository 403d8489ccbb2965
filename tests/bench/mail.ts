/**
 * Email after the renewal run (`npm run bench:run -- --only renewals --renewals-mail`): on the renewed copy of the
 * large data set, the product's mail queues (dispatch and send, pg-boss) plan a message for each renewal event and
 * deliver them to a local SMTP server that counts what it accepts. Prints the planning time, the time until every
 * message was accepted, and messages per second. Figures only.
 */
import type { AddressInfo } from "node:net";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import type { Config } from "../../api/config.ts";
import type { Database } from "../../api/db.ts";
import { mailJobs } from "../../api/jobs/mail-jobs.ts";
import { startJobQueue, type JobQueue } from "../../api/queue/job-queue.ts";
import { dispatchEvents } from "../../api/mail/dispatch.ts";
import { smtpTransport } from "../../api/mail/transport.ts";
import type { Clock } from "../../api/shared/clock.ts";

export async function mailAfterRenewals(db: Database, clock: Clock, config: Config): Promise<string[]> {
  let accepted = 0;
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        accepted++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", () => resolve()));
  const smtpUrl = `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
  const mailConfig: Config = { ...config, smtpUrl, mailFrom: "bench@example.com" };
  const transport = smtpTransport(smtpUrl);
  const log = pino({ level: "silent" });
  // Only the send queue works here: the dispatch is called directly, to time planning on its own.
  const jobs: JobQueue = await startJobQueue({
    db,
    log,
    definitions: mailJobs({ db: db.prisma, clock, config: mailConfig, transport, jobs: () => jobs }).filter((d) => d.queue.name === "mail-send"),
    schedules: [],
    pollingIntervalSeconds: 0.5,
  });
  const out: string[] = [];
  try {
    const t0 = performance.now();
    const planned = await dispatchEvents({ db: db.prisma, clock, config: mailConfig, jobs });
    const tPlan = (performance.now() - t0) / 1000;
    for (;;) {
      const queued = await db.prisma.mailMessage.count({ where: { status: "QUEUED" } });
      if (queued === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const tAll = (performance.now() - t0) / 1000;
    const sent = await db.prisma.mailMessage.count({ where: { status: "SENT" } });
    const failed = await db.prisma.mailMessage.count({ where: { status: "FAILED" } });
    out.push(`\nEmail for that renewal run (mail queues on the copy, a local SMTP server; 3 sends at once in one process):`);
    out.push(`  planned: ${planned.messages} messages from ${planned.events} events in ${tPlan.toFixed(1)} s (${(planned.messages / tPlan).toFixed(0)} per second, rendered and stored with their send jobs)`);
    out.push(`  delivered: ${sent} accepted by the SMTP server (${accepted} counted there), ${failed} failed, ${tAll.toFixed(1)} s from the start: ${(sent / tAll).toFixed(0)} messages per second end to end, ${(sent / Math.max(0.001, tAll - tPlan)).toFixed(0)} per second for the sends after planning`);
  } finally {
    await jobs.stop();
    transport.close();
    await new Promise<void>((resolve) => sink.close(() => resolve()));
  }
  return out;
}
