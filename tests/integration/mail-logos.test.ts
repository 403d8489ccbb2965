/**
 * Logos in email, through a real SMTP server (api/uploads/email-png.ts): Gmail and Outlook show no SVG, so every
 * message draws the business's logo from a PNG rendition on this server, with its width, height and alt text: the
 * demo's SVG logos are drawn to `/demo/<name>.png`, an upload gets `/uploads/<id>-email.png` (at upload, or when
 * first needed for an upload from before). The PNGs answer with a cross-origin resource policy (the Sent mail
 * viewer's sandboxed frame and webmail load them from other origins) and a long cache lifetime.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ParsedMail } from "mailparser";
import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeEvents, SYSTEM_ACTOR } from "../../api/events/outbox.ts";
import { mailJobs } from "../../api/jobs/mail-jobs.ts";
import { startJobQueue, type JobQueue } from "../../api/queue/job-queue.ts";
import { dispatchEvents } from "../../api/mail/dispatch.ts";
import { smtpTransport } from "../../api/mail/transport.ts";
import { globalId } from "../../api/shared/global-id.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { startTestSmtp, type TestSmtp } from "../support/smtp.ts";

const DEMO_LOGO = "green-acres-farm-logo";

let t: TestApp;
let f: Factories;
let smtp: TestSmtp;
let jobs: JobQueue;
let web: string;
let uploads: string;
let adminToken: string;
let origin: string;
let seq = 0;

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A web build with the demo's logo in it, as `npm run web:build` copies web/public/demo. */
function writeWebBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mail-logos-web-"));
  fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html><html><head><title>App</title></head><body></body></html>");
  fs.mkdirSync(path.join(dir, "demo"));
  fs.copyFileSync(path.resolve(import.meta.dirname, `../../web/public/demo/${DEMO_LOGO}.svg`), path.join(dir, "demo", `${DEMO_LOGO}.svg`));
  return dir;
}

/** A flat logo-like image: two colours, so it is not empty. */
function logoImage(width: number, height: number, format: "png" | "jpeg" | "gif") {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) raw.set(i % width < width / 2 ? [47, 133, 90] : [246, 224, 94], i * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })[format]().toBuffer();
}

async function upload(bytes: Buffer, filename: string): Promise<string> {
  const boundary = "----mail-logos-boundary";
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/admin/upload",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().file.url as string;
}

/** A business with `logoUrl` cancels a member's membership: the cancellation email as the SMTP server received it. */
async function cancellationWithLogo(logoUrl: string): Promise<ParsedMail> {
  const n = ++seq;
  const business = await f.business({ slug: `logo-farm-${n}`, name: `Logo Farm ${n}`, page: { logoUrl } });
  const email = `member${n}@example.com`;
  const member = await f.user({ username: `logomember${n}`, email });
  const sub = await t.db.prisma.subscription.create({
    data: { userId: member.id, businessId: business.id, planId: (await f.plan(business)).id, mode: "PICKUP", planAmountCents: 1000, totalCents: 1000, status: "CANCELED" },
  });
  await t.db.prisma.$transaction((tx) =>
    writeEvents(tx, { at: t.clock.now(), actor: SYSTEM_ACTOR }, [
      { type: "membership.canceled.v1", businessId: business.id, objectId: globalId("Membership", sub.id), payload: { membershipId: sub.id, userId: member.id, reason: "business" } },
    ]),
  );
  await dispatchEvents({ db: t.db.prisma, clock: t.clock, config: t.config, jobs });
  await until("the cancellation to arrive", async () => smtp.received.some((m) => m.subject?.includes(`Logo Farm ${n}`)));
  return smtp.received.find((m) => m.subject?.includes(`Logo Farm ${n}`))!;
}

/** The attributes of the message's one <img>. */
function logoOf(m: ParsedMail): Record<string, string> {
  const html = typeof m.html === "string" ? m.html : "";
  const tags = html.match(/<img\b[^>]*>/g) ?? [];
  expect(tags).toHaveLength(1);
  return Object.fromEntries([...tags[0]!.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v.replace(/&amp;/g, "&")]));
}

/** Fetches an absolute URL of the email from the app, checking it is an email PNG served to every origin. */
async function fetchEmailPng(src: string) {
  expect(src.startsWith(`${origin}/`), src).toBe(true);
  const res = await t.app.inject({ method: "GET", url: src.slice(origin.length) });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toBe("image/png");
  expect(res.headers["cross-origin-resource-policy"]).toBe("cross-origin");
  expect(String(res.headers["cache-control"])).toMatch(/^public, max-age=(2592000|31536000)/);
  const meta = await sharp(res.rawPayload).metadata();
  expect(meta.format).toBe("png");
  expect(meta.width).toBeGreaterThan(0);
  return { res, meta };
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  web = writeWebBuild();
  uploads = fs.mkdtempSync(path.join(os.tmpdir(), "mail-logos-uploads-"));
  t = await createTestApp({ config: { smtpUrl: smtp.url, mailFrom: "boxes@example.com", webDistDir: web, uploadsDir: uploads } });
  origin = `${t.config.publicScheme}://${t.config.publicHost}`;
  f = factories(t);
  adminToken = await f.session(await f.user({ username: "root", isAdmin: true }));
  jobs = await startJobQueue({
    db: t.db,
    log: pino({ level: "silent" }),
    definitions: mailJobs({ db: t.db.prisma, clock: t.clock, config: t.config, transport: smtpTransport(smtp.url), jobs: () => jobs }).filter((d) => d.queue.name === "mail-send"),
    schedules: [],
    pollingIntervalSeconds: 0.5,
  });
}, 60_000);

afterAll(async () => {
  await jobs?.stop();
  await t?.close();
  await smtp?.close();
  fs.rmSync(web, { recursive: true, force: true });
  fs.rmSync(uploads, { recursive: true, force: true });
});

describe("logos in email", () => {
  it("a demo SVG logo is sent as its PNG rendition, with size and alt text, served to every origin", async () => {
    const mail = await cancellationWithLogo(`/demo/${DEMO_LOGO}.svg`);
    const img = logoOf(mail);
    expect(img).toMatchObject({ src: `${origin}/demo/${DEMO_LOGO}.png`, width: "48", height: "48", alt: expect.stringMatching(/^Logo Farm \d+$/) });
    const { res, meta } = await fetchEmailPng(img.src);
    // Drawn from the vector at twice the display size, not a 120 px raster enlarged.
    expect([meta.width, meta.height]).toEqual([96, 96]);
    expect(res.headers["cache-control"]).toBe("public, max-age=2592000");
    expect((await t.app.inject({ method: "HEAD", url: `/demo/${DEMO_LOGO}.png` })).headers["content-type"]).toBe("image/png");
    // The SVG itself is still the web app's, and a demo PNG without its SVG is a 404.
    expect((await t.app.inject({ method: "GET", url: `/demo/${DEMO_LOGO}.svg` })).headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect((await t.app.inject({ method: "GET", url: "/demo/no-such-logo.png" })).statusCode).toBe(404);
    // The rest of the app keeps its same-origin policy.
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).headers["cross-origin-resource-policy"]).toBe("same-origin");
  });

  it("an uploaded logo gets an email PNG at upload, which its emails show at its aspect ratio", async () => {
    const url = await upload(await logoImage(800, 200, "png"), "wide-logo.png");
    const id = /^\/uploads\/([0-9a-f]{32})\.png$/.exec(url)![1];
    expect(fs.existsSync(path.join(uploads, `${id}-email.png`))).toBe(true);
    const img = logoOf(await cancellationWithLogo(url));
    expect(img).toMatchObject({ src: `${origin}/uploads/${id}-email.png`, width: "192", height: "48" });
    const { res, meta } = await fetchEmailPng(img.src);
    expect([meta.width, meta.height]).toEqual([384, 96]);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("an upload from before email PNGs gets its PNG when the first email needs it", async () => {
    const id = "ab".repeat(16);
    fs.writeFileSync(path.join(uploads, `${id}.jpg`), await logoImage(300, 300, "jpeg"));
    const img = logoOf(await cancellationWithLogo(`/uploads/${id}.jpg`));
    expect(img).toMatchObject({ src: `${origin}/uploads/${id}-email.png`, width: "48", height: "48" });
    expect(fs.existsSync(path.join(uploads, `${id}-email.png`))).toBe(true);
    expect((await fetchEmailPng(img.src)).meta.width).toBe(96);
  });

  it("logos sharp does not convert keep their address: a GIF upload, another site's image", async () => {
    const gif = await upload(await logoImage(120, 60, "gif"), "logo.gif");
    expect(logoOf(await cancellationWithLogo(gif))).toMatchObject({ src: `${origin}${gif}`, height: "48" });
    const gifId = /^\/uploads\/([0-9a-f]{32})\.gif$/.exec(gif)![1];
    const asked = await t.app.inject({ method: "GET", url: `/uploads/${gifId}-email.png` });
    expect([asked.statusCode, asked.headers.location]).toEqual([302, gif]);

    const remote = logoOf(await cancellationWithLogo("https://cdn.example.com/logo.png"));
    expect(remote).toMatchObject({ src: "https://cdn.example.com/logo.png", height: "48" });
    expect(remote.width).toBeUndefined();
  });
});
