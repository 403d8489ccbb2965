import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ChakraProvider } from "@chakra-ui/react";
import { RelayEnvironmentProvider } from "react-relay";
import { BrowserRouter } from "react-router";
import { createRelayEnvironment } from "./lib/relayEnvironment.ts";
import { leavingForMainHost } from "./routes/publicRoutes.tsx";
import { AppRoutes, preloadRoute } from "./router.tsx";
import { appSystem } from "./ui/theme.ts";
// Chakra's global styles, built from the theme (web/vite.config.ts chakraGlobalCss): a stylesheet the HTML links.
import "virtual:chakra-global.css";

const environment = createRelayEnvironment();
// The opened page's chunk and query start now, while the entry still runs, in parallel, under the key React
// Router gives its first location: the history entry's (a page reloaded after navigating inside the app) or
// "default". Its first render then finds them started; under another key it took itself for a second
// navigation, dropped the queries started here and asked for them again.
const firstKey = (window.history.state as { key?: unknown } | null)?.key;
if (!leavingForMainHost) preloadRoute(environment, { pathname: window.location.pathname, key: typeof firstKey === "string" && firstKey ? firstKey : "default" });

const root = createRoot(document.getElementById("root")!);
// A transition, so React renders the first page in slices that yield to the browser (about 5 ms each) instead
// of one task of several hundred milliseconds on a phone's CPU (a default update renders in one go): the same
// page, with the main thread free in between (Lighthouse's Total Blocking Time).
startTransition(() =>
  root.render(
    <StrictMode>
      <ChakraProvider value={appSystem}>
        <RelayEnvironmentProvider environment={environment}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </RelayEnvironmentProvider>
      </ChakraProvider>
    </StrictMode>,
  ),
);
