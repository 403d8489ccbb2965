import { useState } from "react";
import { Box, Heading, Stack, Switch, Text } from "@chakra-ui/react";
import { graphql, useFragment, useMutation } from "react-relay";
import { writeMailPreferences } from "../../lib/mailPreferences.ts";
import { FormResult } from "../../ui/FormError.tsx";
import type { EmailPreferencesSectionFragment_user$key } from "./__generated__/EmailPreferencesSectionFragment_user.graphql.ts";
import type { EmailPreferencesSectionMutation } from "./__generated__/EmailPreferencesSectionMutation.graphql.ts";

/**
 * The member's optional emails (Profile tab): the window-closing reminder and the upcoming-charge notice, each
 * saved as soon as it is switched. Receipts, payment and security messages always go.
 */
export function EmailPreferencesSection({ user }: { user: EmailPreferencesSectionFragment_user$key }) {
  const data = useFragment(
    graphql`
      fragment EmailPreferencesSectionFragment_user on User {
        id
        mailPreferences {
          reminders
          prechargeNotice
        }
      }
    `,
    user,
  );
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [commit, busy] = useMutation<EmailPreferencesSectionMutation>(graphql`
    mutation EmailPreferencesSectionMutation($input: UpdateMailPreferencesInput!) {
      updateMailPreferences(input: $input) {
        __typename
        ... on UpdateMailPreferencesSuccess {
          data {
            reminders
            prechargeNotice
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const save = (patch: { reminders?: boolean; prechargeNotice?: boolean }) => {
    setMessage(null);
    commit({
      variables: { input: patch },
      // The switch moves at once; a refusal puts it back.
      optimisticUpdater: (store) => writeMailPreferences(store, data.id, patch),
      updater: (store, response) => {
        const result = response?.updateMailPreferences;
        if (result?.__typename === "UpdateMailPreferencesSuccess" && result.data) writeMailPreferences(store, data.id, result.data);
      },
      onCompleted: ({ updateMailPreferences: result }) => {
        if (result.__typename === "UpdateMailPreferencesSuccess") setMessage({ ok: true, text: "Email preferences saved." });
        else setMessage({ ok: false, text: ("message" in result && result.message) || "Could not save your email preferences" });
      },
      onError: (e) => setMessage({ ok: false, text: e.message || "Could not save your email preferences" }),
    });
  };
  const prefs = data.mailPreferences;
  return (
    <Box as="section" aria-labelledby="email-preferences-heading" p={{ base: "4", md: "6" }} rounded="xl" bg="bg" borderWidth="1px">
      <Heading as="h2" id="email-preferences-heading" size="lg" mb="4">
        Email preferences
      </Heading>
      <Stack gap="4">
        <PreferenceSwitch label="Window-closing reminders" description="A reminder 3 days before you can no longer skip or change your next box." checked={prefs.reminders} disabled={busy} onChange={(reminders) => save({ reminders })} />
        <PreferenceSwitch label="Upcoming charge notices" description="A notice 3 days before your card is charged, with the amount and date." checked={prefs.prechargeNotice} disabled={busy} onChange={(prechargeNotice) => save({ prechargeNotice })} />
        <Text fontSize="sm" color="fg.muted">
          Receipts, payment problems and security messages (such as a password change) are always sent.
        </Text>
        <FormResult result={message} fontSize="sm" />
      </Stack>
    </Box>
  );
}

function PreferenceSwitch({ label, description, checked, disabled, onChange }: { label: string; description: string; checked: boolean; disabled: boolean; onChange: (checked: boolean) => void }) {
  return (
    <Stack gap="1">
      <Switch.Root colorPalette="orange" checked={checked} disabled={disabled} onCheckedChange={(e) => onChange(e.checked)}>
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label fontWeight="medium">{label}</Switch.Label>
      </Switch.Root>
      <Text fontSize="sm" color="fg.muted" ps="12">
        {description}
      </Text>
    </Stack>
  );
}
