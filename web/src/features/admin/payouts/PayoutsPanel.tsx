import { useEffect, useRef, useState, useTransition } from "react";
import { Stack, Text } from "@chakra-ui/react";
import { graphql, useMutation, useRefetchableFragment } from "react-relay";
import { useSearchParams } from "react-router";
import { Panel } from "../../../ui/admin/AdminPage.tsx";
import { InlineAlert } from "../../../ui/InlineAlert.tsx";
import { feesSentence } from "../fees/rates.ts";
import { resultError } from "../mutationResult.ts";
import { BalancePanel } from "./BalancePanel.tsx";
import { PayoutAccountSection } from "./PayoutAccountSection.tsx";
import { PayoutList } from "./PayoutList.tsx";
import { StatementPanel } from "./StatementPanel.tsx";
import type { PayoutsPanelFragment_business$key } from "./__generated__/PayoutsPanelFragment_business.graphql.ts";
import type { PayoutsPanelRefetchQuery } from "./__generated__/PayoutsPanelRefetchQuery.graphql.ts";
import type { PayoutsPanelRefreshMutation } from "./__generated__/PayoutsPanelRefreshMutation.graphql.ts";

/** The query parameter the provider's onboarding sends the owner back with (api/billing/connect.ts payoutsPageUrl). */
const RETURN_PARAM = "onboarding";
const RETURN_VALUES = new Set(["return", "refresh"]);

/**
 * A business's payouts: its payout account, its balance and payouts, the fees in force and its monthly statement. Back from the provider's
 * onboarding page (?onboarding=return, or =refresh when its link had expired) it asks the server once to read the
 * account from the provider, drops the parameter (a reload asks nothing), and shows the state the server then reports.
 */
export function PayoutsPanel({ business: key }: { business: PayoutsPanelFragment_business$key }) {
  const [data, refetch] = useRefetchableFragment<PayoutsPanelRefetchQuery, PayoutsPanelFragment_business$key>(
    graphql`
      fragment PayoutsPanelFragment_business on Business @refetchable(queryName: "PayoutsPanelRefetchQuery") {
        databaseId
        feeRates {
          platformBps
          platformCents
          processingBps
          processingCents
        }
        ...PayoutAccountSectionFragment_business
        ...BalancePanelFragment_business
        ...PayoutListFragment_business
        ...StatementPanelFragment_business
      }
    `,
    key,
  );
  const [commitRefresh, refreshing] = useMutation<PayoutsPanelRefreshMutation>(graphql`
    # The account comes back without an id of its own: the business is read again instead (refetch).
    mutation PayoutsPanelRefreshMutation($input: RefreshPayoutAccountInput!) {
      refreshPayoutAccount(input: $input) {
        __typename
        ... on Error {
          message
        }
      }
    }
  `);
  const [reloading, startTransition] = useTransition();
  const [refreshError, setRefreshError] = useState<string | null>(null);
  const [params, setParams] = useSearchParams();
  const returned = RETURN_VALUES.has(params.get(RETURN_PARAM) ?? "");
  // Once per visit, StrictMode's second effect run included.
  const handled = useRef(false);
  const businessId = data.databaseId;
  const rates = data.feeRates;

  useEffect(() => {
    if (!returned || handled.current) return;
    handled.current = true;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(RETURN_PARAM);
        return next;
      },
      { replace: true },
    );
    commitRefresh({
      variables: { input: { businessId: String(businessId) } },
      onCompleted: ({ refreshPayoutAccount }) => {
        const failure = resultError(refreshPayoutAccount, "Could not read the payout account from the payment provider");
        if (failure) return setRefreshError(failure);
        startTransition(() => {
          refetch({}, { fetchPolicy: "network-only" });
        });
      },
      onError: (e) => setRefreshError(e.message || "Could not read the payout account from the payment provider"),
    });
  }, [returned, businessId, commitRefresh, refetch, setParams]);

  return (
    <Stack gap="6">
      <InlineAlert title="Payout account not updated">{refreshError}</InlineAlert>
      <PayoutAccountSection business={data} checking={refreshing || reloading} />
      <BalancePanel business={data} />
      <PayoutList business={data} />
      {rates && (
        <Panel title="Fees">
          <Text fontWeight="medium" data-testid="fees-in-force">
            {feesSentence({ platformBps: rates.platformBps, platformCents: rates.platformCents, processingBps: rates.processingBps, processingCents: rates.processingCents })}
          </Text>
          <Text fontSize="sm" color="fg.muted" mt="1">
            Taken from each member&apos;s charge this month, as the platform has set them; the rest is yours.
          </Text>
        </Panel>
      )}
      <StatementPanel business={data} />
    </Stack>
  );
}
