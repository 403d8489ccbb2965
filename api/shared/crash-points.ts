/**
 * Test-only crash points: with `CRASH_AT=<name>` outside production, the process kills itself (SIGKILL, no
 * clean-up, as a power cut or an OOM kill would) when it reaches that point. The payment crash tests use them to
 * prove that a request killed half-way leaves nothing a retry cannot finish. Points in use:
 * - `sandbox:claimed`: the sandbox provider holds an idempotency claim and has not done the work yet;
 * - `settle:before-commit`: a payment succeeded at the provider and its settlement transaction is not committed;
 * - `mail:before-send`, `mail:after-send`, `mail:after-record`: a queued message before it is handed to SMTP,
 *   after SMTP took it but before it is recorded as sent, and after that record (the mail process tests).
 */
const target = process.env.NODE_ENV === "production" ? undefined : process.env.CRASH_AT || undefined;

export function crashPoint(name: string): void {
  if (target === name) process.kill(process.pid, "SIGKILL");
}
