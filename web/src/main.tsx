import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ChakraProvider } from "@chakra-ui/react";
import { RelayEnvironmentProvider } from "react-relay";
import { BrowserRouter } from "react-router";
import { createRelayEnvironment } from "./lib/relayEnvironment.ts";
import { AppRoutes } from "./router.tsx";
import { system } from "./ui/theme.ts";

const environment = createRelayEnvironment();

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
