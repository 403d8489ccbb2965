import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import relay from "vite-plugin-relay";
import { sharedAlias } from "./vite.config.ts";

const here = import.meta.dirname;

export default defineConfig({
  root: here,
  plugins: [react(), relay],
  resolve: { alias: [sharedAlias] },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
