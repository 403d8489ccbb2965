/**
 * A real SMTP server for the mail tests (npm `smtp-server`), on a free local port, that parses what it receives
 * (`mailparser`). `refuse` makes it answer the next submissions with an SMTP error (a 4xx is temporary, a 5xx
 * permanent), as a server that is down or rejects a recipient would.
 */
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface TestSmtp {
  url: string;
  received: ParsedMail[];
  /** Answer the next `times` messages with `code` (e.g. 451 or 550). */
  refuse(code: number, times?: number): void;
  /** Refuse connections altogether (the server is down) until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  let refusal: { code: number; times: number } | null = null;
  let port = 0;
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          if (refusal && refusal.times > 0) {
            refusal.times--;
            const err = Object.assign(new Error(refusal.code >= 500 ? "Mailbox unavailable" : "Try again later"), { responseCode: refusal.code });
            callback(err);
            return;
          }
          simpleParser(Buffer.concat(chunks))
            .then((mail) => {
              received.push(mail);
              callback();
            })
            .catch(callback);
        });
      },
    });
  let server = make();
  const listen = () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  await listen();
  port = (server.server.address() as AddressInfo).port;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse(code, times = 1) {
      refusal = { code, times };
    },
    down: close,
    async up() {
      server = make();
      await listen();
    },
    close,
  };
}
