import { createSystem, defaultConfig, defineConfig } from "@chakra-ui/react";

/** The platform's look: warm neutrals with the spec's default orange as the brand colour. */
const config = defineConfig({
  globalCss: {
    "html, body": { bg: "#fffaf5", color: "fg", minHeight: "100%" },
  },
  theme: {
    tokens: {
      fonts: {
        heading: { value: "'Iowan Old Style', 'Palatino Linotype', Palatino, Georgia, serif" },
        body: { value: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
      },
    },
  },
});

export const system = createSystem(defaultConfig, config);
