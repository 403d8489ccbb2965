/**
 * The one email layout (React Email components, rendered on the server): the business's logo, name and colour
 * around a message's heading, paragraphs, an optional receipt table and action buttons, with a footer that says
 * why the member got it. Every template (./templates.ts) is a Letter rendered by this layout, to HTML and to plain
 * text. Written with createElement: the server runs TypeScript by type stripping, which has no JSX.
 */
import { Body, Button, Column, Container, Head, Heading, Hr, Html, Img, Link, Preview, Row, Section, Text } from "@react-email/components";
import { render, toPlainText } from "@react-email/render";
import { createElement as h, Fragment, type ReactNode } from "react";

/** Who a message comes from, as the member sees it. */
export interface Brand {
  name: string;
  /** Absolute URL of the logo, or null. */
  logoUrl: string | null;
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
  /** A receipt: labelled amounts (already formatted), the last one the total. */
  receipt?: { label: string; amount: string }[];
  actions?: { label: string; href: string }[];
  /** Why the recipient gets this (and how to turn it off, for optional messages). */
  footer: string;
}

const text = { fontSize: "15px", lineHeight: "24px", color: "#1f2933", margin: "0 0 14px" } as const;

function Layout({ brand, letter }: { brand: Brand; letter: Letter }): ReactNode {
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
          brand.logoUrl ? h(Img, { src: brand.logoUrl, alt: brand.name, height: "48", style: { marginBottom: "8px" } }) : null,
          h(Text, { style: { ...text, fontSize: "18px", fontWeight: 700, margin: "0 0 20px" } }, brand.name),
        ),
        h(Heading, { as: "h1", style: { fontSize: "22px", lineHeight: "30px", color: "#111827", margin: "0 0 16px" } }, letter.heading),
        ...letter.paragraphs.map((p, i) => h(Text, { key: `p${i}`, style: text }, p)),
        letter.receipt ? h(Receipt, { lines: letter.receipt }) : null,
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
        h(Hr, { style: { borderColor: "#e5e7eb", margin: "24px 0 16px" } }),
        h(Text, { style: { ...text, fontSize: "12px", lineHeight: "18px", color: "#6b7280" } }, letter.footer, " ", h(Link, { href: brand.url, style: { color: "#6b7280" } }, brand.name)),
      ),
    ),
  );
}

function Receipt({ lines }: { lines: { label: string; amount: string }[] }): ReactNode {
  return h(
    Section,
    { style: { border: "1px solid #e5e7eb", borderRadius: "6px", padding: "8px 16px", margin: "4px 0 18px" } },
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

/** The message's HTML and plain-text parts. */
export async function renderLetter(brand: Brand, letter: Letter): Promise<{ html: string; text: string }> {
  // One render: the text part is derived from the HTML (what render's plainText option does after rendering again).
  const html = await render(h(Layout, { brand, letter }));
  return { html, text: toPlainText(html) };
}
