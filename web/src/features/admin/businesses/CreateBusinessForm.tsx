import { useState } from "react";
import { Button, Code, Field, HStack, IconButton, Input, NativeSelect, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { graphql, useMutation } from "react-relay";
import { SLUG_MAX_LENGTH, slugFor } from "@shared/slug.ts";
import { Panel } from "../../../ui/admin/AdminPage.tsx";
import { resultError } from "../mutationResult.ts";
import { UserSearch, type FoundUser } from "./UserSearch.tsx";
import { addAttachment, ROLE_LABELS, withRole, type BusinessRole, type PendingAttachment } from "./roles.ts";
import type { CreateBusinessFormMutation } from "./__generated__/CreateBusinessFormMutation.graphql.ts";
import { SubmitRow } from "../../../ui/admin/SubmitRow.tsx";

export function RoleSelect({ value, onChange, roles, label }: { value: BusinessRole; onChange: (role: BusinessRole) => void; roles: BusinessRole[]; label: string }) {
  return (
    <NativeSelect.Root size="sm" width="auto">
      <NativeSelect.Field aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value as BusinessRole)}>
        {roles.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

/** Create a business: name, optional subdomain (normalised, previewed) and attached users with roles. */
export function CreateBusinessForm({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [attachments, setAttachments] = useState<PendingAttachment<FoundUser>[]>([]);
  const [picked, setPicked] = useState<FoundUser | null>(null);
  const [pickedRole, setPickedRole] = useState<BusinessRole>("OWNER");
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  // Remounts the user search after a create, clearing its text and results.
  const [searchKey, setSearchKey] = useState(0);
  // Only the stored name comes back (for the status line): the list is fetched again after a create (onCreated),
  // since where a new business lands in the paged list is the server's order.
  const [commit, creating] = useMutation<CreateBusinessFormMutation>(graphql`
    mutation CreateBusinessFormMutation($input: CreateBusinessInput!) {
      createBusiness(input: $input) {
        __typename
        ... on CreateBusinessSuccess {
          data {
            name
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  // What the server will store: the typed subdomain, else one derived from the name (the server's own rule).
  const preview = slugFor(name, slug);
  const tooLong = preview.length > SLUG_MAX_LENGTH;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setStatus(null);
    if (!name.trim()) {
      setError("Please enter a business name");
      return;
    }
    setError(null);
    commit({
      variables: {
        input: {
          name: name.trim(),
          slug: slug.trim() ? preview : null,
          attachments: attachments.map((a) => ({ userId: Number(a.user.id), role: a.role })),
        },
      },
      onCompleted: ({ createBusiness }) => {
        const failure = resultError(createBusiness);
        if (failure) return setError(failure);
        setStatus(`Created ${createBusiness.data?.name ?? name}`);
        setName("");
        setSlug("");
        setAttachments([]);
        setPicked(null);
        setSearchKey((k) => k + 1);
        onCreated();
      },
      onError: (e) => setError(e.message),
    });
  };

  return (
    <Panel title="Create business">
      <form onSubmit={submit} noValidate>
<Stack gap="4">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          <Field.Root required>
            <Field.Label>Name</Field.Label>
            <Input value={name} onChange={(e) => setName(e.target.value)} placeholder="Sunny Side Farm" />
          </Field.Root>
          <Field.Root invalid={tooLong}>
            <Field.Label>Subdomain (optional)</Field.Label>
            <Input value={slug} onChange={(e) => setSlug(e.target.value)} placeholder="sunny-side-farm" />
            <Field.HelperText data-testid="slug-preview">
              Subdomain: <Code>{preview || "—"}</Code>
            </Field.HelperText>
            {tooLong && <Field.ErrorText>A subdomain has at most {SLUG_MAX_LENGTH} characters (this one has {preview.length})</Field.ErrorText>}
          </Field.Root>
        </SimpleGrid>
        <Stack gap="2">
          <Text fontWeight="medium">Attached users</Text>
          {attachments.map((a, i) => (
            <HStack key={a.user.id} gap="2" wrap="wrap">
              <Text flex="1" minW="24">
                {a.user.username}
              </Text>
              <RoleSelect label={`Role of ${a.user.username}`} value={a.role} roles={["OWNER", "EDITOR", "VIEWER"]} onChange={(role) => setAttachments((list) => withRole(list, i, role))} />
              <IconButton size="sm" variant="ghost" aria-label={`Remove ${a.user.username}`} onClick={() => setAttachments((list) => list.filter((_, j) => j !== i))}>
                ✕
              </IconButton>
            </HStack>
          ))}
          <Stack direction={{ base: "column", md: "row" }} gap="2" align={{ md: "flex-start" }}>
            <Stack flex="1">
              <UserSearch key={searchKey} selected={picked} onSelect={setPicked} exclude={attachments.map((a) => a.user.id)} />
            </Stack>
            <RoleSelect label="Role for the chosen user" value={pickedRole} roles={["OWNER", "EDITOR", "VIEWER"]} onChange={setPickedRole} />
            <Button
              variant="outline"
              disabled={!picked}
              onClick={() => {
                if (!picked) return;
                setAttachments((list) => addAttachment(list, picked, pickedRole));
                setPicked(null);
              }}
            >
              Attach
            </Button>
          </Stack>
        </Stack>
        <SubmitRow error={error} status={status} busy={creating} label="Create Business" />
      </Stack>
      </form>
    </Panel>
  );
}
