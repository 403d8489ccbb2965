import { useState } from "react";
import { Box, Button, Checkbox, Code, Field, Fieldset, Heading, HStack, Input, Stack, Text, useClipboard } from "@chakra-ui/react";
import { graphql, useMutation } from "react-relay";
import { resultError } from "../mutationResult.ts";
import type { CreateApiTokenFormMutation } from "./__generated__/CreateApiTokenFormMutation.graphql.ts";
import { DEFAULT_SCOPES, SCOPE_OPTIONS, SCOPES_REQUIRED, scopeSentence, toggleScope } from "./scopes.ts";

/** The server's own message for a blank name (api/businesses/service.ts). */
const TOKEN_NAME_REQUIRED = "Please name the token";

interface NewToken {
  name: string;
  secret: string;
  scopes: readonly string[];
}

/**
 * Creates a partner token and shows its secret once: it lives only in this component's state (the server
 * keeps a hash) and is gone after Done or on leaving the page.
 */
export function CreateApiTokenForm({ businessId, businessName, connectionId }: { businessId: number; businessName: string; connectionId: string }) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>([...DEFAULT_SCOPES]);
  const [error, setError] = useState<string | null>(null);
  const [scopeError, setScopeError] = useState<string | null>(null);
  const [created, setCreated] = useState<NewToken | null>(null);
  const [commit, busy] = useMutation<CreateApiTokenFormMutation>(graphql`
    mutation CreateApiTokenFormMutation($input: CreateApiTokenInput!, $connections: [ID!]!) {
      createApiToken(input: $input) {
        __typename
        ... on CreateApiTokenSuccess {
          data {
            token
            apiToken @prependNode(connections: $connections, edgeTypeName: "BusinessApiTokensConnectionEdge") {
              name
              scopes
              ...ApiTokenRowFragment_token
            }
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const nameMissing = !name.trim();
    setError(nameMissing ? TOKEN_NAME_REQUIRED : null);
    setScopeError(scopes.length === 0 ? SCOPES_REQUIRED : null);
    if (nameMissing || scopes.length === 0) return;
    commit({
      variables: { input: { businessId, name: name.trim(), scopes }, connections: [connectionId] },
      onCompleted: ({ createApiToken }) => {
        const failure = resultError(createApiToken, "Failed to create the token");
        if (failure || !createApiToken.data) return setError(failure ?? "Failed to create the token");
        const { apiToken, token } = createApiToken.data;
        setCreated({ name: apiToken.name, secret: token, scopes: apiToken.scopes });
        setName("");
        setScopes([...DEFAULT_SCOPES]);
      },
      onError: (e) => setError(e.message || "Failed to create the token"),
    });
  };

  return (
    <Stack gap="4">
      {created && <NewTokenSecret token={created} businessName={businessName} onDone={() => setCreated(null)} />}
      <form onSubmit={submit} noValidate>
        <Field.Root invalid={!!error}>
          <Field.Label>Token name</Field.Label>
          <Stack direction={{ base: "column", sm: "row" }} gap="3" w="full">
            <Input value={name} onChange={(e) => setName(e.target.value)} placeholder="Accounting export" maxLength={100} autoComplete="off" flex={{ sm: "1" }} />
            <Button type="submit" colorPalette="orange" loading={busy}>
              Create token
            </Button>
          </Stack>
          {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>Name it after the partner or app that will use it.</Field.HelperText>}
        </Field.Root>
        <Fieldset.Root invalid={!!scopeError} mt="4">
          <Fieldset.Legend>What it may read</Fieldset.Legend>
          <Stack gap="2" mt="2">
            {SCOPE_OPTIONS.map((o) => (
              <Checkbox.Root
                key={o.scope}
                alignItems="flex-start"
                checked={scopes.includes(o.scope)}
                onCheckedChange={(e) => {
                  setScopes((current) => toggleScope(current, o.scope, !!e.checked));
                  setScopeError(null);
                }}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control mt="0.5" />
                <Checkbox.Label>
                  <Text as="span" fontWeight="medium">
                    {o.label}
                  </Text>{" "}
                  <Code fontSize="xs">{o.scope}</Code>
                  <Text fontSize="sm" color="fg.muted" fontWeight="normal">
                    {o.help}
                  </Text>
                </Checkbox.Label>
              </Checkbox.Root>
            ))}
          </Stack>
          {scopeError && <Fieldset.ErrorText>{scopeError}</Fieldset.ErrorText>}
        </Fieldset.Root>
      </form>
    </Stack>
  );
}

function NewTokenSecret({ token, businessName, onDone }: { token: NewToken; businessName: string; onDone: () => void }) {
  const clipboard = useClipboard({ value: token.secret, timeout: 2000 });
  return (
    <Box role="alert" aria-labelledby="new-token-title" p="4" rounded="lg" bg="orange.50" borderWidth="1px" borderColor="orange.300" data-testid="new-api-token">
      <Stack gap="3">
        <Heading as="h3" size="sm" id="new-token-title" color="orange.900">
          Copy the token “{token.name}” now
        </Heading>
        <Text color="orange.900">This is the only time it is shown: we keep only a fingerprint and cannot show it again. Store it somewhere safe, such as a password manager.</Text>
        <Stack direction={{ base: "column", sm: "row" }} gap="2">
          <Input readOnly value={token.secret} aria-label="New API token" fontFamily="mono" fontSize="sm" bg="bg" onFocus={(e) => e.currentTarget.select()} flex={{ sm: "1" }} />
          <Button colorPalette="orange" onClick={() => clipboard.copy()} minW="24">
            {clipboard.copied ? "Copied" : "Copy"}
          </Button>
        </Stack>
        <Text fontSize="sm" color="fg.muted">
          It reads the {scopeSentence(token.scopes)} of {businessName}, nothing else: partners send it as <Code>Authorization: Bearer {token.secret.slice(0, 8)}…</Code> to <Code>/graphql</Code>.
        </Text>
        <HStack>
          <Button size="sm" variant="outline" bg="bg" onClick={onDone}>
            Done, I have stored it
          </Button>
        </HStack>
      </Stack>
    </Box>
  );
}
