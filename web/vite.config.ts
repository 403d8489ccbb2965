import path from "node:path";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import relay from "vite-plugin-relay";

const here = import.meta.dirname;
// The API server (npm run dev:api) that `vite` proxies to in development.
const api = `http://127.0.0.1:${process.env.API_PORT ?? process.env.PORT ?? 3000}`;

export default defineConfig({
  root: here,
  publicDir: path.join(here, "public"),
  plugins: [react(), relay],
  build: {
    outDir: path.resolve(here, "../dist/web"),
    emptyOutDir: true,
    // Chakra is one large vendor chunk; routes are split with React.lazy.
    chunkSizeWarningLimit: 900,
  },
  server: {
    host: "127.0.0.1",
    port: Number(process.env.WEB_PORT ?? 5173),
    proxy: { "/graphql": api, "/api": api, "/uploads": api },
  },
});
