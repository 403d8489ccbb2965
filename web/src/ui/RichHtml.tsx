import { Box, type BoxProps } from "@chakra-ui/react";

/**
 * Renders rich-text HTML (rendered and sanitised by the server; drafts are the editor's own rendering) with
 * the headings, lists and emphasis the editor makes: the same look in the admin previews, the member portal
 * and the public business page. `css` adds to or overrides these rules (e.g. link colour on a dark page).
 */
export function RichHtml({ html, css, ...props }: { html: string } & BoxProps) {
  return (
    <Box
      {...props}
      css={{
        "& p": { marginBottom: "2" },
        "& h1, & h2": { fontSize: "xl", fontWeight: "bold", marginBottom: "2" },
        "& h3, & h4": { fontSize: "lg", fontWeight: "semibold", marginBottom: "2" },
        "& ul": { listStyle: "disc", paddingStart: "6", marginBottom: "2" },
        "& ol": { listStyle: "decimal", paddingStart: "6", marginBottom: "2" },
        "& li > ul, & li > ol": { marginBottom: "0" },
        "& a": { color: "orange.700", textDecoration: "underline" },
        "& img": { maxWidth: "100%", borderRadius: "md" },
        "& em, & i": { fontStyle: "italic" },
        "& strong, & b": { fontWeight: "bold" },
        "& > :last-child": { marginBottom: "0" },
        ...(css as object),
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
