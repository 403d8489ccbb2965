import { Suspense, useRef, useState } from "react";
import { Button, Code, Field, Input, Stack, Text } from "@chakra-ui/react";
import { graphql, useMutation } from "react-relay";
import { useParams } from "react-router";
import { SandboxCard } from "../features/sandbox/SandboxCard.tsx";
import { isNotFoundError } from "../lib/relayEnvironment.ts";
import { useRefetchKey, useRouteQuery } from "../lib/routeQuery.ts";
import { ErrorBoundary } from "../ui/ErrorBoundary.tsx";
import { InlineAlert } from "../ui/InlineAlert.tsx";
import { ErrorState, LoadingState } from "../ui/StatusStates.tsx";
import type { SandboxOnboardingRouteQuery } from "./__generated__/SandboxOnboardingRouteQuery.graphql.ts";
import type { SandboxOnboardingRouteMutation } from "./__generated__/SandboxOnboardingRouteMutation.graphql.ts";

const EXPIRED = "This onboarding link has expired. Start again from the Payouts page.";

/** Stripe's test bank account number whose payouts arrive (the sandbox's default; the others fail, see the hint). */
const PAID_BANK_ACCOUNT = "000123456789";

/**
 * /sandbox/connect/:link: the sandbox provider's stand-in for Stripe's hosted onboarding page, open to whoever
 * holds the link (no sign-in). Submitting it enables the business's payout account, paying out to the bank account
 * number typed (one of Stripe's test numbers decides whether payouts arrive), or leaves it owing its bank account
 * (restricted), and returns to the Payouts page the link was made for.
 */
export default function SandboxOnboardingRoute() {
  const link = useParams().link ?? "";
  const [attempt, setAttempt] = useState(0);
  const fetchKey = useRefetchKey(attempt);
  return (
    <SandboxCard title="Sandbox onboarding">
      <ErrorBoundary
        key={`${link}:${attempt}`}
        fallback={(error) =>
          isNotFoundError(error) ? <Expired /> : <ErrorState message={error.message || "Could not load this onboarding link."} onRetry={() => setAttempt((n) => n + 1)} />
        }
      >
        <Suspense fallback={<LoadingState label="Loading…" />}>
          <Onboarding link={link} fetchKey={fetchKey} />
        </Suspense>
      </ErrorBoundary>
    </SandboxCard>
  );
}

function Expired() {
  return (
    <Text role="alert" data-testid="onboarding-expired">
      {EXPIRED}
    </Text>
  );
}

function Onboarding({ link, fetchKey }: { link: string; fetchKey: string | undefined }) {
  const { sandboxOnboardingLink: page } = useRouteQuery<SandboxOnboardingRouteQuery>(
    graphql`
      query SandboxOnboardingRouteQuery($link: String!) {
        sandboxOnboardingLink(link: $link) {
          accountId
          businessName
          usable
        }
      }
    `,
    { link },
    { fetchKey, fetchPolicy: "network-only" },
  );
  const [commit, busy] = useMutation<SandboxOnboardingRouteMutation>(graphql`
    mutation SandboxOnboardingRouteMutation($link: String!, $leaveRequirementsDue: Boolean!, $bankAccount: String) {
      completeSandboxOnboarding(link: $link, leaveRequirementsDue: $leaveRequirementsDue, bankAccount: $bankAccount) {
        __typename
        ... on CompleteSandboxOnboardingSuccess {
          data
        }
        ... on ValidationError {
          issues {
            path
            message
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const [bankAccount, setBankAccount] = useState(PAID_BANK_ACCOUNT);
  const [bankAccountError, setBankAccountError] = useState<string | null>(null);
  const bankAccountInput = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  // The button pressed, spinning until the browser has left for the return URL.
  const [pressed, setPressed] = useState<"complete" | "leave" | null>(null);

  const submit = (leaveRequirementsDue: boolean) => {
    setError(null);
    setBankAccountError(null);
    setPressed(leaveRequirementsDue ? "leave" : "complete");
    commit({
      // Left owing its bank account, the account is given none.
      variables: { link, leaveRequirementsDue, bankAccount: leaveRequirementsDue ? null : bankAccount },
      onCompleted: ({ completeSandboxOnboarding: result }) => {
        if (result.data) return window.location.assign(result.data);
        setPressed(null);
        // A spent or expired link is refused as a missing one or as an invalid `link`.
        if (result.__typename === "NotFoundError" || result.issues?.some((i) => i.path === "link")) return setExpired(true);
        const bankAccountIssue = result.issues?.find((i) => i.path === "bankAccount");
        if (bankAccountIssue) {
          setBankAccountError(bankAccountIssue.message);
          return bankAccountInput.current?.focus();
        }
        setError(result.message || "Could not complete the onboarding");
      },
      onError: (e) => {
        setPressed(null);
        setError(e.message || "Could not complete the onboarding");
      },
    });
  };

  if (!page.usable || expired) return <Expired />;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit(false);
      }}
    >
      <Stack gap="4">
        <Text>
          Business: <strong>{page.businessName}</strong>
        </Text>
        <Text>
          Account: <Code>{page.accountId}</Code>
        </Text>
        <Text fontSize="sm" color="fg.muted">
          This page stands in for the payment provider&apos;s onboarding, where the owner gives their details and bank account. Only the bank account number is
          asked here: complete the onboarding, or leave a requirement due to see a restricted account.
        </Text>
        <Field.Root invalid={!!bankAccountError}>
          <Field.Label>Bank account number</Field.Label>
          <Input
            ref={bankAccountInput}
            value={bankAccount}
            onChange={(e) => {
              setBankAccount(e.target.value);
              setBankAccountError(null);
            }}
            inputMode="numeric"
            autoComplete="off"
            spellCheck={false}
            fontFamily="mono"
          />
          {bankAccountError && <Field.ErrorText>{bankAccountError}</Field.ErrorText>}
          <Field.HelperText>
            Stripe&apos;s test numbers: <Code size="sm">{PAID_BANK_ACCOUNT}</Code> is paid out; <Code size="sm">000111111116</Code> fails (no such account);{" "}
            <Code size="sm">000111111113</Code> fails (account closed).
          </Field.HelperText>
        </Field.Root>
        <InlineAlert>{error}</InlineAlert>
        <Stack direction={{ base: "column", sm: "row" }} gap="3">
          <Button type="submit" colorPalette="orange" loading={pressed === "complete"} disabled={busy || pressed !== null}>
            Complete onboarding
          </Button>
          <Button variant="outline" loading={pressed === "leave"} disabled={busy || pressed !== null} onClick={() => submit(true)}>
            Leave requirements due
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
