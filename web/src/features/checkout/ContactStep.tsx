import { Checkbox, Field, Heading, Input, Link, Stack, Text, Textarea } from "@chakra-ui/react";
import { useEffect, useState } from "react";
import { fetchQuery, graphql, useRelayEnvironment } from "react-relay";
import { Link as RouterLink } from "react-router";
import type { ContactStepUsernameQuery } from "./__generated__/ContactStepUsernameQuery.graphql.ts";
import type { ContactStepRegisterMutation } from "./__generated__/ContactStepRegisterMutation.graphql.ts";
import { commitAsync } from "../../lib/mutations.ts";
import { saveSessionFrom } from "../../lib/sessionPayload.ts";
import { useDebouncedValue } from "../../lib/useDebouncedValue.ts";
import { FormError } from "../../ui/FormError.tsx";
import { StepButtons } from "./StepButtons.tsx";

const UsernameQuery = graphql`
  query ContactStepUsernameQuery($username: String!) {
    usernameAvailable(username: $username)
  }
`;

// The new account's session goes to storage, not to a screen: the checkout loads its viewer again on sign-in.
const RegisterMutation = graphql`
  mutation ContactStepRegisterMutation($input: RegisterInput!) {
    register(input: $input) {
      __typename
      ... on RegisterSuccess {
        data {
          ...sessionPayload_auth
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

/** The server's limit of a gift message and of delivery instructions (api/billing/checkout/checkout.ts, api/users/service.ts). */
const GIFT_MESSAGE_MAX = 500;

/** Spec §9 username check delay and §5 minimum length. */
const USERNAME_CHECK_DELAY_MS = 500;
const USERNAME_MIN_LENGTH = 3;

type Availability = "unchecked" | "checking" | "available" | "taken" | "error";

export interface ContactValues {
  email: string;
  username: string;
  password: string;
  isGift: boolean;
  /** Packed with the gift box; sent only when isGift. */
  giftMessage: string;
}

interface Props {
  loggedInUser: { username: string; email: string | null } | null;
  values: ContactValues;
  onChange: (patch: Partial<ContactValues>) => void;
  onBack: () => void;
  onContinue: () => void;
  loginPath: string;
}

/** Step 0 'Contact & Account Information': profile details when logged in, registration fields otherwise. */
export function ContactStep({ loggedInUser, values, onChange, onBack, onContinue, loginPath }: Props) {
  const environment = useRelayEnvironment();
  const [checked, setChecked] = useState<{ name: string; outcome: "available" | "taken" | "error"; message?: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = values.username.trim();
  const settledName = useDebouncedValue(name, USERNAME_CHECK_DELAY_MS);

  // A debounced check: each settled username is asked with Relay's fetchQuery (network only: another sign-up
  // may have taken it since) and the answer kept with the name it answers.
  useEffect(() => {
    if (loggedInUser || settledName.length < USERNAME_MIN_LENGTH) return;
    const subscription = fetchQuery<ContactStepUsernameQuery>(environment, UsernameQuery, { username: settledName }, { fetchPolicy: "network-only" }).subscribe({
      next: (res) => setChecked({ name: settledName, outcome: res.usernameAvailable ? "available" : "taken" }),
      error: (e: Error) => setChecked({ name: settledName, outcome: "error", message: e.message }),
    });
    return () => subscription.unsubscribe();
  }, [settledName, loggedInUser, environment]);
  const availability: Availability = name.length < USERNAME_MIN_LENGTH ? "unchecked" : checked?.name === name ? checked.outcome : "checking";
  const availabilityError = checked?.outcome === "error" ? checked.message : undefined;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    if (!values.email.trim() || !/^\S+@\S+\.\S+$/.test(values.email.trim())) {
      setError("Please enter a valid email address.");
      return;
    }
    if (loggedInUser) {
      onContinue();
      return;
    }
    if (!values.username.trim() || !values.password) {
      setError("Please provide username and password");
      return;
    }
    if (availability !== "available") {
      setError("Please choose an available username");
      return;
    }
    setBusy(true);
    try {
      const res = await commitAsync<ContactStepRegisterMutation>(environment, RegisterMutation, { input: { username: values.username.trim(), password: values.password, email: values.email.trim() } });
      const r = res.register;
      if (!r.data) {
        setError(("message" in r && r.message) || "Registration failed");
        return;
      }
      saveSessionFrom(r.data);
      onContinue();
    } catch (err) {
      setError((err as Error).message || "Registration failed");
    } finally {
      setBusy(false);
    }
  }

  const usernameHint: Record<Availability, { text: string; color: string } | null> = {
    unchecked: values.username.trim().length > 0 ? { text: "Username must be at least 3 characters long", color: "fg.muted" } : null,
    checking: { text: "Checking availability…", color: "fg.muted" },
    available: { text: "Username is available", color: "green.700" },
    taken: { text: "Username is already taken. Please choose a different one.", color: "red.600" },
    error: { text: availabilityError || "Error checking username availability", color: "red.600" },
  };
  const hint = usernameHint[availability];

  return (
    <form onSubmit={submit} noValidate>
      <Heading as="h2" size="lg">
        Contact &amp; Account Information
      </Heading>
      <Text color="fg.muted" mb="6">
        We'll use this information to send you membership updates
      </Text>
      <Stack gap="4">
        {loggedInUser ? (
          <>
            <Field.Root readOnly>
              <Field.Label>Username</Field.Label>
              <Input value={loggedInUser.username} readOnly bg="bg.muted" />
            </Field.Root>
            <Field.Root readOnly={!!loggedInUser.email} required>
              <Field.Label>Email</Field.Label>
              <Input type="email" value={values.email} readOnly={!!loggedInUser.email} onChange={(e) => onChange({ email: e.target.value })} bg={loggedInUser.email ? "bg.muted" : "bg"} />
              <Field.HelperText>Your email comes from your profile. Change it on the Profile tab of your membership page.</Field.HelperText>
            </Field.Root>
          </>
        ) : (
          <>
            <Field.Root required>
              <Field.Label>
                Email <Field.RequiredIndicator />
              </Field.Label>
              <Input type="email" autoComplete="email" value={values.email} onChange={(e) => onChange({ email: e.target.value })} bg="bg" />
            </Field.Root>
            <Field.Root required invalid={availability === "taken" || availability === "error"}>
              <Field.Label>
                Username <Field.RequiredIndicator />
              </Field.Label>
              <Input autoComplete="username" value={values.username} onChange={(e) => onChange({ username: e.target.value })} bg="bg" />
              {hint && (
                <Text fontSize="sm" color={hint.color} aria-live="polite" data-testid="username-status">
                  {hint.text}
                </Text>
              )}
            </Field.Root>
            <Field.Root required>
              <Field.Label>
                Password <Field.RequiredIndicator />
              </Field.Label>
              <Input type="password" autoComplete="new-password" value={values.password} onChange={(e) => onChange({ password: e.target.value })} bg="bg" />
            </Field.Root>
          </>
        )}
        <Checkbox.Root checked={values.isGift} onCheckedChange={(e) => onChange({ isGift: !!e.checked })}>
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>This is a gift subscription</Checkbox.Label>
        </Checkbox.Root>
        {values.isGift && (
          <Field.Root>
            <Field.Label>Gift message (optional)</Field.Label>
            <Textarea value={values.giftMessage} onChange={(e) => onChange({ giftMessage: e.target.value })} maxLength={GIFT_MESSAGE_MAX} rows={3} bg="bg" />
            <Field.HelperText>Packed with the box. Up to {GIFT_MESSAGE_MAX} characters.</Field.HelperText>
          </Field.Root>
        )}
        {!loggedInUser && (
          <Text fontSize="sm">
            Already have an account?{" "}
            <Link asChild color="blue.600" fontWeight="medium">
              <RouterLink to={loginPath}>Log in</RouterLink>
            </Link>
          </Text>
        )}
        <FormError>{error}</FormError>
        <StepButtons backLabel="← Back to Selection" onBack={onBack} continueLabel="Continue to Address" busy={busy} />
      </Stack>
    </form>
  );
}
