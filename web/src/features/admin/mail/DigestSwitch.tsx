import { useState } from "react";
import { HStack, Switch, Text } from "@chakra-ui/react";
import { graphql, useFragment, useMutation } from "react-relay";
import { writeMailPreferences } from "../../../lib/mailPreferences.ts";
import { FormError } from "../../../ui/FormError.tsx";
import { resultError } from "../mutationResult.ts";
import { SAVED_FLAG_MS } from "../timings.ts";
import { useFlash } from "../useFlash.ts";
import type { DigestSwitchFragment_user$key } from "./__generated__/DigestSwitchFragment_user.graphql.ts";
import type { DigestSwitchMutation } from "./__generated__/DigestSwitchMutation.graphql.ts";

/**
 * The signed-in staff user's daily digest (new members, cancellations, failed payments of the businesses they
 * own or edit): saved as soon as it is switched.
 */
export function DigestSwitch({ user }: { user: DigestSwitchFragment_user$key }) {
  const data = useFragment(
    graphql`
      fragment DigestSwitchFragment_user on User {
        id
        mailPreferences {
          digest
        }
      }
    `,
    user,
  );
  const [error, setError] = useState<string | null>(null);
  const [saved, flashSaved] = useFlash<boolean>();
  const [commit, busy] = useMutation<DigestSwitchMutation>(graphql`
    mutation DigestSwitchMutation($input: UpdateMailPreferencesInput!) {
      updateMailPreferences(input: $input) {
        __typename
        ... on UpdateMailPreferencesSuccess {
          data {
            digest
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const change = (digest: boolean) => {
    setError(null);
    commit({
      variables: { input: { digest } },
      optimisticUpdater: (store) => writeMailPreferences(store, data.id, { digest }),
      updater: (store, response) => {
        const result = response?.updateMailPreferences;
        if (result?.__typename === "UpdateMailPreferencesSuccess" && result.data) writeMailPreferences(store, data.id, result.data);
      },
      onCompleted: ({ updateMailPreferences }) => {
        const failure = resultError(updateMailPreferences, "Could not save");
        if (failure) return setError(failure);
        flashSaved(true, SAVED_FLAG_MS);
      },
      onError: (e) => setError(e.message || "Could not save"),
    });
  };
  return (
    <HStack gap="3" wrap="wrap">
      <Switch.Root colorPalette="orange" checked={data.mailPreferences.digest} disabled={busy} onCheckedChange={(e) => change(e.checked)}>
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label>Email me a daily digest</Switch.Label>
      </Switch.Root>
      <Text fontSize="sm" color="fg.muted">
        New members, cancellations and failed payments of your businesses, once a day.
      </Text>
      <Text role="status" fontSize="sm" color="green.700">
        {saved ? "Saved" : ""}
      </Text>
      <FormError fontSize="sm">{error}</FormError>
    </HStack>
  );
}
