import { Box, type BoxProps } from "@chakra-ui/react";

/**
 * Renders rich-text HTML (sanitised by the server on save; drafts are the editor's own output) with the
 * headings, lists and emphasis the editor makes: the same look in the admin previews and the member portal.
 */
export function RichHtml({ html, ...props }: { html: string } & BoxProps) {
  return (
    <Box
      {...props}
      css={{
        "& p": { marginBottom: "2" },
        "& h1, & h2": { fontSize: "xl", fontWeight: "bold", marginBottom: "2" },
        "& h3, & h4": { fontSize: "lg", fontWeight: "semibold", marginBottom: "2" },
        "& ul": { listStyle: "disc", paddingStart: "6", marginBottom: "2" },
        "& ol": { listStyle: "decimal", paddingStart: "6", marginBottom: "2" },
        "& a": { color: "orange.700", textDecoration: "underline" },
        "& img": { maxWidth: "100%", borderRadius: "md" },
        "& em, & i": { fontStyle: "italic" },
        "& strong, & b": { fontWeight: "bold" },
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
