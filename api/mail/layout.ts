/**
 * The one email layout (React Email components, rendered on the server): the business's logo, name and colour
 * around a message's heading, paragraphs, an optional receipt (its details and a table of amounts), action buttons
 * and closing words, with a footer that says why the member got it. Every template (./templates.ts) is a Letter
 * rendered by this layout to HTML, and written from the same Letter to plain text (not derived from the HTML, which
 * ran buttons and table cells together): each receipt row and each action link on a line of its own. Written with
 * createElement: the server runs TypeScript by type stripping, which has no JSX.
 */
import { Body, Button, Column, Container, Head, Heading, Hr, Html, Img, Link, Preview, Row, Section, Text } from "@react-email/components";
import { render } from "@react-email/render";
import { createElement as h, Fragment, type ReactNode } from "react";
import type { EmailImage } from "../uploads/email-png.ts";

/** Who a message comes from, as the member sees it. */
export interface Brand {
  name: string;
  /**
   * The logo as emails show it (a PNG rendition: api/uploads/email-png.ts), looked up when the message is rendered;
   * null when the brand has none.
   */
  logo: (() => Promise<EmailImage | null>) | null;
  /** A CSS colour for the header rule and buttons. */
  color: string;
  /** Absolute URL of the business's page. */
  url: string;
}

export interface Letter {
  subject: string;
  /** The inbox preview line. */
  preview: string;
  heading: string;
  paragraphs: string[];
  /** Lines above the receipt's amounts ("Order #123", "Date: November 27, 2026", "Paid with VISA ending in 4242"). */
  details?: string[];
  /** A receipt: labelled amounts (already formatted), the last one the total. */
  receipt?: ReceiptRow[];
  actions?: { label: string; href: string }[];
  /** Paragraphs after the actions (how to reach the business). */
  closing?: string[];
  /** Why the recipient gets this (and how to turn it off, for optional messages). */
  footer: string;
}

export interface ReceiptRow {
  label: string;
  amount: string;
}

const small = { fontSize: "13px", lineHeight: "20px", color: "#4b5563", margin: "0" } as const;

const text = { fontSize: "15px", lineHeight: "24px", color: "#1f2933", margin: "0 0 14px" } as const;

function Layout({ brand, logo, letter }: { brand: Brand; logo: EmailImage | null; letter: Letter }): ReactNode {
  return h(
    Html,
    { lang: "en" },
    h(Head, null),
    h(Preview, null, letter.preview),
    h(
      Body,
      { style: { backgroundColor: "#f4f5f7", fontFamily: "Helvetica, Arial, sans-serif", margin: 0, padding: "24px 0" } },
      h(
        Container,
        { style: { backgroundColor: "#ffffff", borderTop: `4px solid ${brand.color}`, maxWidth: "560px", padding: "28px 32px" } },
        h(
          Section,
          null,
          // Width and height in attributes: Outlook sizes images by them, and the layout does not jump as images load.
          logo ? h(Img, { src: logo.src, alt: brand.name, width: logo.width ?? undefined, height: logo.height, style: { marginBottom: "8px" } }) : null,
          h(Text, { style: { ...text, fontSize: "18px", fontWeight: 700, margin: "0 0 20px" } }, brand.name),
        ),
        h(Heading, { as: "h1", style: { fontSize: "22px", lineHeight: "30px", color: "#111827", margin: "0 0 16px" } }, letter.heading),
        ...letter.paragraphs.map((p, i) => h(Text, { key: `p${i}`, style: text }, p)),
        letter.receipt?.length || letter.details?.length ? h(Receipt, { details: letter.details ?? [], lines: letter.receipt ?? [] }) : null,
        letter.actions?.length
          ? h(
              Section,
              { style: { margin: "8px 0 20px" } },
              ...letter.actions.map((a, i) =>
                h(
                  Button,
                  {
                    key: `a${i}`,
                    href: a.href,
                    style: { backgroundColor: brand.color, borderRadius: "6px", color: "#ffffff", fontSize: "15px", fontWeight: 600, padding: "10px 18px", marginRight: "8px", marginBottom: "8px" },
                  },
                  a.label,
                ),
              ),
            )
          : null,
        ...(letter.closing ?? []).map((p, i) => h(Text, { key: `c${i}`, style: text }, p)),
        h(Hr, { style: { borderColor: "#e5e7eb", margin: "24px 0 16px" } }),
        h(Text, { style: { ...text, fontSize: "12px", lineHeight: "18px", color: "#6b7280" } }, letter.footer, " ", h(Link, { href: brand.url, style: { color: "#6b7280" } }, brand.name)),
      ),
    ),
  );
}

function Receipt({ details, lines }: { details: string[]; lines: ReceiptRow[] }): ReactNode {
  return h(
    Section,
    { style: { border: "1px solid #e5e7eb", borderRadius: "6px", padding: "8px 16px", margin: "4px 0 18px" } },
    ...details.map((d, i) => h(Text, { key: `d${i}`, style: { ...small, margin: i === details.length - 1 && lines.length ? "0 0 8px" : "0" } }, d)),
    ...lines.map((line, i) => {
      const total = i === lines.length - 1;
      const style = { ...text, margin: "6px 0", fontWeight: total ? 700 : 400 };
      return h(
        Fragment,
        { key: `r${i}` },
        total && lines.length > 1 ? h(Hr, { style: { borderColor: "#e5e7eb", margin: "4px 0" } }) : null,
        h(Row, null, h(Column, null, h(Text, { style: style }, line.label)), h(Column, { align: "right" }, h(Text, { style: style }, line.amount))),
      );
    }),
  );
}

/**
 * The plain-text part, written from the Letter: blocks apart by a blank line; the receipt's details and rows one a
 * line ("Subtotal: $34.00"); each action as "Label: URL" on its own line, so no two links ever run together.
 */
function plainText(brand: Brand, letter: Letter): string {
  const blocks = [
    brand.name,
    letter.heading,
    ...letter.paragraphs,
    (letter.details ?? []).join("\n"),
    (letter.receipt ?? []).map((r) => `${r.label}: ${r.amount}`).join("\n"),
    (letter.actions ?? []).map((a) => `${a.label}: ${a.href}`).join("\n"),
    ...(letter.closing ?? []),
    `--\n${letter.footer} ${brand.name}: ${brand.url}`,
  ];
  return `${blocks.filter((b) => b.trim() !== "").join("\n\n")}\n`;
}

/** The message's HTML and plain-text parts. */
export async function renderLetter(brand: Brand, letter: Letter): Promise<{ html: string; text: string }> {
  const logo = brand.logo ? await brand.logo() : null;
  const html = await render(h(Layout, { brand, logo, letter }));
  return { html, text: plainText(brand, letter) };
}
