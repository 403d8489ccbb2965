import { Button, HStack, Text } from "@chakra-ui/react";
import { Link as RouterLink, useLocation, useNavigate, useParams } from "react-router";
import { SandboxCard } from "../features/sandbox/SandboxCard.tsx";

/**
 * /sandbox/connect/accounts/:accountId: where the Payouts page's "Bank details" leads with the sandbox provider
 * (Stripe's is the connected account's Express dashboard). Back returns to the page the owner came from.
 */
export default function SandboxAccountRoute() {
  const accountId = useParams().accountId ?? "";
  const navigate = useNavigate();
  // Opened with no page before it in this tab (React Router's first location): back to the admin area instead.
  const hasHistory = useLocation().key !== "default";
  return (
    <SandboxCard title={`Sandbox account ${accountId}`}>
      <Text>The sandbox has no provider dashboard. With Stripe, this button opens the Express dashboard: payouts and bank details.</Text>
      <HStack>
        <Button asChild variant="outline">
          <RouterLink
            to="/admin"
            onClick={(e) => {
              if (!hasHistory) return;
              e.preventDefault();
              void navigate(-1);
            }}
          >
            Back
          </RouterLink>
        </Button>
      </HStack>
    </SandboxCard>
  );
}
