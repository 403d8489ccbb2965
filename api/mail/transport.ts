/**
 * Delivery over SMTP (nodemailer). A message goes out with the Message-ID it was given when planned, so a send
 * repeated after a crash (accepted by the server, not yet recorded here) carries the same Message-ID and mail
 * clients show it once. A refusal at submission with a 5xx reply is permanent (the address or the message is
 * refused: retrying cannot help); anything else (4xx, connection refused, timeouts) is temporary and retried.
 */
import nodemailer from "nodemailer";

interface OutgoingMail {
  from: { name: string; address: string };
  to: string;
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  messageId: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** The SMTP server refused the message for good (a 5xx reply): recorded as failed, never retried. */
export class PermanentMailError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentMailError";
  }
}

export function smtpTransport(url: string): MailTransport {
  // A small pool: a renewal run's receipts reuse connections instead of one handshake per message.
  // (nodemailer reads transport options from the URL's query: smtp://host:587?pool=true&maxConnections=3).
  const pooled = new URL(url);
  if (!pooled.searchParams.has("pool")) pooled.searchParams.set("pool", "true");
  if (!pooled.searchParams.has("maxConnections")) pooled.searchParams.set("maxConnections", "3");
  const transporter = nodemailer.createTransport(pooled.href);
  return {
    async send(mail) {
      try {
        await transporter.sendMail({
          from: mail.from,
          to: mail.to,
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          messageId: mail.messageId,
        });
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode;
        if (typeof code === "number" && code >= 500 && code < 600) throw new PermanentMailError((err as Error).message);
        throw err;
      }
    },
    close: () => transporter.close(),
  };
}
