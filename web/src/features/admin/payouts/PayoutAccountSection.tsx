import { useState } from "react";
import { Badge, Box, Button, HStack, List, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment, useMutation } from "react-relay";
import { useNavigate } from "react-router";
import { monthYear } from "../../../lib/dates.ts";
import { Panel } from "../../../ui/admin/AdminPage.tsx";
import { InlineAlert } from "../../../ui/InlineAlert.tsx";
import { resultError } from "../mutationResult.ts";
import { requirementLabel } from "./requirements.ts";
import type { PayoutAccountSectionFragment_business$key } from "./__generated__/PayoutAccountSectionFragment_business.graphql.ts";
import type { PayoutAccountSectionStartMutation } from "./__generated__/PayoutAccountSectionStartMutation.graphql.ts";
import type { PayoutAccountSectionDashboardMutation } from "./__generated__/PayoutAccountSectionDashboardMutation.graphql.ts";

/** What the page shows of the account: its state, or that there is none yet. */
type Shown = "NONE" | "ONBOARDING" | "ENABLED" | "RESTRICTED";

const BADGES: Record<Shown, { label: string; palette: string }> = {
  NONE: { label: "Not connected", palette: "gray" },
  ONBOARDING: { label: "Finish setup", palette: "orange" },
  ENABLED: { label: "Enabled", palette: "green" },
  RESTRICTED: { label: "Restricted", palette: "red" },
};

/** The account's state as shown; a state this build does not know yet reads as unfinished setup. */
function shownState(status: string | null | undefined): Shown {
  if (!status) return "NONE";
  return status === "ENABLED" || status === "RESTRICTED" ? status : "ONBOARDING";
}

/**
 * Where the provider's page is opened: a page of this app (the sandbox's stand-in for Stripe's dashboard is a
 * relative URL) inside the app, anything else by the browser.
 */
function openUrl(url: string, navigate: (to: string) => void) {
  const target = new URL(url, window.location.href);
  if (target.origin === window.location.origin) navigate(`${target.pathname}${target.search}${target.hash}`);
  else window.location.assign(target.href);
}

/**
 * The business's payout account (spec: Payouts): its state with what the provider still needs, and the one
 * action it calls for. Connect and Finish setup leave for the provider's onboarding page, which sends the owner
 * back to this page with ?onboarding=return (PayoutsPanel then reads the new state).
 */
export function PayoutAccountSection({ business: key, checking }: { business: PayoutAccountSectionFragment_business$key; checking: boolean }) {
  const business = useFragment(
    graphql`
      fragment PayoutAccountSectionFragment_business on Business {
        databaseId
        connectFromPeriod
        payoutAccount {
          status
          requirementsDue
        }
      }
    `,
    key,
  );
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  // Set once the provider's page is on its way: the button keeps spinning until the browser leaves.
  const [leaving, setLeaving] = useState(false);
  const [startOnboarding, starting] = useMutation<PayoutAccountSectionStartMutation>(graphql`
    mutation PayoutAccountSectionStartMutation($input: StartPayoutOnboardingInput!) {
      startPayoutOnboarding(input: $input) {
        __typename
        ... on StartPayoutOnboardingSuccess {
          data {
            url
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const [dashboardLink, opening] = useMutation<PayoutAccountSectionDashboardMutation>(graphql`
    mutation PayoutAccountSectionDashboardMutation($input: PayoutDashboardLinkInput!) {
      payoutDashboardLink(input: $input) {
        __typename
        ... on PayoutDashboardLinkSuccess {
          data
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const input = { businessId: String(business.databaseId) };

  const onboard = () => {
    setError(null);
    startOnboarding({
      variables: { input },
      onCompleted: ({ startPayoutOnboarding: result }) => {
        const url = result.data?.url;
        if (!url) return setError(resultError(result, "Could not start the payout setup") ?? "Could not start the payout setup");
        setLeaving(true);
        window.location.assign(url);
      },
      onError: (e) => setError(e.message || "Could not start the payout setup"),
    });
  };
  const openDashboard = () => {
    setError(null);
    dashboardLink({
      variables: { input },
      onCompleted: ({ payoutDashboardLink: result }) => {
        const url = result.data;
        if (!url) return setError(resultError(result, "Could not open the bank details") ?? "Could not open the bank details");
        openUrl(url, (to) => void navigate(to));
      },
      onError: (e) => setError(e.message || "Could not open the bank details"),
    });
  };

  const state = shownState(business.payoutAccount?.status);
  const badge = BADGES[state];
  const requirements = business.payoutAccount?.requirementsDue ?? [];
  const busy = starting || leaving;

  return (
    <Panel title="Payout account">
      <Stack gap="4" aria-busy={checking}>
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="medium">Status:</Text>
          <Badge colorPalette={badge.palette} size="lg" data-testid="payout-status">
            {badge.label}
          </Badge>
        </HStack>
        {checking && (
          <Text role="status" color="fg.muted">
            Checking your account with the payment provider…
          </Text>
        )}
        <Text data-testid="payout-status-text">
          {state === "NONE" && "Connect a payout account so members' payments go straight to your own bank account."}
          {state === "ONBOARDING" && "Your payout account is not set up yet. Finish setup with the payment provider to receive members' payments."}
          {state === "ENABLED" && (business.connectFromPeriod ? `Members' payments go to your own account from ${monthYear(business.connectFromPeriod)}` : "Members' payments go to your own account")}
          {state === "RESTRICTED" && "The payment provider is holding back charges or payouts until it has what it needs."}
        </Text>
        {state !== "ENABLED" && state !== "NONE" && requirements.length > 0 && (
          <Box>
            <Text fontWeight="medium" id="payout-requirements">
              Still needed
            </Text>
            <List.Root aria-labelledby="payout-requirements" ps="5" mt="1">
              {requirements.map((code) => (
                <List.Item key={code} title={code}>
                  {requirementLabel(code)}
                </List.Item>
              ))}
            </List.Root>
          </Box>
        )}
        <InlineAlert>{error}</InlineAlert>
        <Stack direction={{ base: "column", sm: "row" }} gap="3">
          {state === "NONE" && (
            <Button colorPalette="orange" loading={busy} onClick={onboard}>
              Connect payouts
            </Button>
          )}
          {(state === "ONBOARDING" || state === "RESTRICTED") && (
            <Button colorPalette="orange" loading={busy} onClick={onboard}>
              Finish setup
            </Button>
          )}
          {state === "ENABLED" && (
            <Button colorPalette="orange" loading={opening} onClick={openDashboard}>
              Bank details
            </Button>
          )}
        </Stack>
      </Stack>
    </Panel>
  );
}
