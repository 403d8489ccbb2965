import { Box, Button, Field, Heading, Input, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { startTransition, useState } from "react";
import { fetchQuery, graphql, useFragment, useRelayEnvironment } from "react-relay";
import type { ProfileTabFragment_user$key } from "./__generated__/ProfileTabFragment_user.graphql.ts";
import type { ProfileTabFragment_paymentConfig$key } from "./__generated__/ProfileTabFragment_paymentConfig.graphql.ts";
import type { ProfileTabSaveMutation } from "./__generated__/ProfileTabSaveMutation.graphql.ts";
import type { ProfileTabPasswordMutation } from "./__generated__/ProfileTabPasswordMutation.graphql.ts";
import type { ProfileTabMovableQuery } from "./__generated__/ProfileTabMovableQuery.graphql.ts";
import { commitAsync } from "../../lib/mutations.ts";
import { clearSession } from "../../lib/session.ts";
import type { SelectionAddress } from "../../lib/selection.ts";
import { CardUpdateSection } from "./CardUpdateSection.tsx";
import { EmailPreferencesSection } from "./EmailPreferencesSection.tsx";
import { StateSelect } from "../checkout/StateSelect.tsx";
import { readSavedAddress } from "../checkout/savedAddress.ts";
import { FormError } from "../../ui/FormError.tsx";
import { MoveBoxesPrompt, readMoveChoice, type MoveChoice } from "./MoveBoxesPrompt.tsx";
import { addressChanged, profileSavedText } from "./deliveryAddress.ts";
import { followName, withAddressName } from "./addressName.ts";

const ProfileTabFragment = graphql`
  fragment ProfileTabFragment_user on User {
    username
    email
    name
    phone
    address {
      ...savedAddress_address
    }
    ...CardUpdateSectionFragment_user
    ...EmailPreferencesSectionFragment_user
  }
`;

/**
 * The memberships "Also send my boxes here?" offers, asked only when a new address is saved (the portal's
 * own query stays at its three statements).
 */
const MovableQuery = graphql`
  query ProfileTabMovableQuery {
    viewer {
      boxAddressMemberships {
        ...MoveBoxesPrompt_membership
      }
    }
  }
`;

const PaymentConfigFragment = graphql`
  fragment ProfileTabFragment_paymentConfig on PaymentConfig {
    ...CardUpdateSectionFragment_paymentConfig
  }
`;

const SaveMutation = graphql`
  mutation ProfileTabSaveMutation($input: UpdateProfileInput!) {
    updateProfile(input: $input) {
      __typename
      ... on UpdateProfileSuccess {
        data {
          ...ProfileTabFragment_user
          # The memberships whose boxes the save moved: their cards show the new address at once.
          boxAddressMemberships {
            ...MoveBoxesPrompt_membership
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

// Returns only whether it worked: success clears the session and returns to login (spec §4), nothing to show.
const PasswordMutation = graphql`
  mutation ProfileTabPasswordMutation($input: ChangePasswordInput!) {
    changePassword(input: $input) {
      __typename
      ... on ChangePasswordSuccess {
        data
      }
      ... on Error {
        message
      }
    }
  }
`;

/** Spec §5 member password form rule: all three fields, and the confirmation must match. */
export function passwordFormError(current: string, next: string, confirm: string): string | null {
  if (!current || !next || !confirm) return "Please fill all password fields";
  if (next !== confirm) return "New password and confirmation do not match";
  return null;
}

/** Profile tab: email, name, phone, address; password change; email preferences; card update. */
export function ProfileTab({ user, paymentConfig, onCardUpdated }: { user: ProfileTabFragment_user$key; paymentConfig: ProfileTabFragment_paymentConfig$key; onCardUpdated?: () => void }) {
  const data = useFragment(ProfileTabFragment, user);
  const config = useFragment(PaymentConfigFragment, paymentConfig);
  const environment = useRelayEnvironment();
  const [email, setEmail] = useState(data.email ?? "");
  const [name, setName] = useState(data.name ?? "");
  const [phone, setPhone] = useState(data.phone ?? "");
  const [address, setAddress] = useState<SelectionAddress>(() => withAddressName(savedAddress(), data.name ?? ""));
  const [profileMsg, setProfileMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  // "Also send my boxes here?": open while asked; each question starts with nothing ticked (its key).
  const [asking, setAsking] = useState(false);
  const [question, setQuestion] = useState(0);
  const [askError, setAskError] = useState<string | null>(null);
  const [choices, setChoices] = useState<MoveChoice[]>([]);
  const [pw, setPw] = useState({ current: "", next: "", confirm: "" });
  const [pwMsg, setPwMsg] = useState<string | null>(null);
  const [pwBusy, setPwBusy] = useState(false);

  /** The saved address, its name as the form starts it (a name filled in from "Your name" alone is no new address). */
  function savedAddress(): SelectionAddress {
    return data.address ? readSavedAddress(data.address) : { fullName: "", phone: "", street: "", apt: "", city: "", state: "", zip: "", country: "" };
  }

  function changeName(next: string) {
    setAddress((cur) => ({ ...cur, fullName: followName(cur.fullName, name, next) }));
    setName(next);
  }

  /** Save: a new address, with shipping or delivery memberships to take along, asks first which ones go there too. */
  async function submitProfile(e: React.FormEvent) {
    e.preventDefault();
    const saved = withAddressName(savedAddress(), data.name ?? "");
    if (addressChanged(saved, address)) {
      setSaving(true);
      setProfileMsg(null);
      let found: MoveChoice[];
      try {
        const res = await fetchQuery<ProfileTabMovableQuery>(environment, MovableQuery, {}, { fetchPolicy: "network-only" }).toPromise();
        found = (res?.viewer?.boxAddressMemberships ?? []).map(readMoveChoice);
      } catch {
        setProfileMsg({ ok: false, text: "Could not check which memberships could move with you. Please try again." });
        return;
      } finally {
        setSaving(false);
      }
      if (found.length > 0) {
        setChoices(found);
        setAskError(null);
        setQuestion((n) => n + 1);
        setAsking(true);
        return;
      }
    }
    void saveProfile(null);
  }

  /** `move`: the memberships ticked in the question (null: not asked; the save moves none either way). */
  async function saveProfile(move: MoveChoice[] | null) {
    setSaving(true);
    setProfileMsg(null);
    setAskError(null);
    const fail = (text: string) => (move ? setAskError(text) : setProfileMsg({ ok: false, text }));
    try {
      const input = { email, name, phone, address, ...(move ? { moveMembershipIds: move.map((c) => c.id) } : {}) };
      const res = await commitAsync<ProfileTabSaveMutation>(environment, SaveMutation, { input });
      const r = res.updateProfile;
      if (!r.data) {
        fail(r.message || "Failed to save profile");
        return;
      }
      setAsking(false);
      // Gone at once (the status line says what happened), as the card's address dialog.
      setQuestion(0);
      setProfileMsg({ ok: true, text: profileSavedText((move ?? []).map((c) => c.label)) });
    } catch (err) {
      fail((err as Error).message || "Failed to save profile");
    } finally {
      setSaving(false);
    }
  }

  async function changePassword(e: React.FormEvent) {
    e.preventDefault();
    const problem = passwordFormError(pw.current, pw.next, pw.confirm);
    if (problem) {
      setPwMsg(problem);
      return;
    }
    setPwBusy(true);
    setPwMsg(null);
    try {
      const res = await commitAsync<ProfileTabPasswordMutation>(environment, PasswordMutation, { input: { currentPassword: pw.current, newPassword: pw.next } });
      const r = res.changePassword;
      if (!r.data) {
        setPwMsg(("message" in r && r.message) || "Failed to change password");
        return;
      }
      // Spec §4: success clears the stored session and returns to login.
      clearSession();
    } catch (err) {
      setPwMsg((err as Error).message || "Failed to change password");
    } finally {
      setPwBusy(false);
    }
  }

  const addrField = (key: keyof SelectionAddress, label: string) => (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <Input value={address[key]} onChange={(e) => setAddress((cur) => ({ ...cur, [key]: e.target.value }))} />
    </Field.Root>
  );

  return (
    <Stack gap="8">
      <Box as="section" p={{ base: "4", md: "6" }} rounded="xl" bg="bg" borderWidth="1px">
        <Heading as="h2" size="lg" mb="4">
          Profile
        </Heading>
        <form onSubmit={(e) => void submitProfile(e)}>
          <Stack gap="4">
            <Text fontSize="sm" color="fg.muted">
              Username: <strong>{data.username}</strong>
            </Text>
            <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
              <Field.Root>
                <Field.Label>Email</Field.Label>
                <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
              </Field.Root>
              <Field.Root>
                <Field.Label>Your name</Field.Label>
                <Input value={name} autoComplete="name" onChange={(e) => changeName(e.target.value)} />
              </Field.Root>
              <Field.Root>
                <Field.Label>Phone</Field.Label>
                <Input type="tel" value={phone} onChange={(e) => setPhone(e.target.value)} />
              </Field.Root>
            </SimpleGrid>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              {addrField("fullName", "Name on the address")}
              {addrField("street", "Street address")}
              {addrField("apt", "Apt, suite, unit")}
              {addrField("city", "City")}
              <StateSelect value={address.state} onChange={(state) => setAddress((cur) => ({ ...cur, state }))} />
              {addrField("zip", "Zip code")}
              {addrField("country", "Country")}
            </SimpleGrid>
            {profileMsg && (
              <Text role={profileMsg.ok ? "status" : "alert"} color={profileMsg.ok ? "green.700" : "red.600"}>
                {profileMsg.text}
              </Text>
            )}
            <Box>
              <Button type="submit" colorPalette="orange" loading={saving && !asking}>
                Save profile
              </Button>
            </Box>
          </Stack>
        </form>
        {question > 0 && (
          <MoveBoxesPrompt
            key={question}
            open={asking}
            choices={choices}
            address={address}
            busy={saving}
            error={askError}
            onCancel={() => setAsking(false)}
            onConfirm={(ticked) => void saveProfile(ticked)}
          />
        )}
      </Box>

      <Box as="section" p={{ base: "4", md: "6" }} rounded="xl" bg="bg" borderWidth="1px">
        <Heading as="h2" size="lg" mb="4">
          Change password
        </Heading>
        <form onSubmit={changePassword} noValidate>
          <Stack gap="4" maxW="md">
            <Field.Root>
              <Field.Label>Current password</Field.Label>
              <Input type="password" autoComplete="current-password" value={pw.current} onChange={(e) => setPw({ ...pw, current: e.target.value })} />
            </Field.Root>
            <Field.Root>
              <Field.Label>New password</Field.Label>
              <Input type="password" autoComplete="new-password" value={pw.next} onChange={(e) => setPw({ ...pw, next: e.target.value })} />
            </Field.Root>
            <Field.Root>
              <Field.Label>Confirm new password</Field.Label>
              <Input type="password" autoComplete="new-password" value={pw.confirm} onChange={(e) => setPw({ ...pw, confirm: e.target.value })} />
            </Field.Root>
            <FormError>{pwMsg}</FormError>
            <Box>
              <Button type="submit" variant="outline" loading={pwBusy}>
                Change password
              </Button>
            </Box>
          </Stack>
        </form>
      </Box>

      <EmailPreferencesSection user={data} />

      {/* In a transition: the portal keeps showing while the memberships refetch (a past-due one turns active). */}
      <CardUpdateSection user={data} paymentConfig={config} onUpdated={() => onCardUpdated && startTransition(onCardUpdated)} />
    </Stack>
  );
}
