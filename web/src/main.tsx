import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ChakraProvider } from "@chakra-ui/react";
import { RelayEnvironmentProvider } from "react-relay";
import { BrowserRouter } from "react-router";
import { createRelayEnvironment } from "./lib/relayEnvironment.ts";
import { leavingForMainHost } from "./routes/publicRoutes.tsx";
import { AppRoutes, preloadRoute } from "./router.tsx";
import { system } from "./ui/theme.ts";

const environment = createRelayEnvironment();
// The opened page's chunk and query start now, while the entry still runs, in parallel (React Router's first
// location has the key "default": its first render finds them started).
if (!leavingForMainHost) preloadRoute(environment, { pathname: window.location.pathname, key: "default" });

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={environment}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>
  </StrictMode>,
);
