import { useEffect, useState } from "react";
import { Box, Button, Input, Stack, Text } from "@chakra-ui/react";
import { fetchQuery, graphql, useRelayEnvironment } from "react-relay";
import { useDebouncedValue } from "../../../lib/useDebouncedValue.ts";
import type { UserSearchQuery, UserSearchQuery$data } from "./__generated__/UserSearchQuery.graphql.ts";

export type FoundUser = UserSearchQuery$data["userSearch"][number];

const query = graphql`
  query UserSearchQuery($query: String!, $businessId: Int) {
    userSearch(query: $query, businessId: $businessId) {
      id
      username
    }
  }
`;

/** Username search (250 ms debounce) with a pick list; 'Search failed' on errors (spec §8). */
export function UserSearch({ businessId, selected, onSelect, exclude = [] }: { businessId?: number; selected: FoundUser | null; onSelect: (user: FoundUser | null) => void; exclude?: string[] }) {
  const environment = useRelayEnvironment();
  const [text, setText] = useState("");
  const term = useDebouncedValue(text.trim());
  const [results, setResults] = useState<{ term: string; users: readonly FoundUser[] }>({ term: "", users: [] });
  const [error, setError] = useState<string | null>(null);
  // A debounced search: each settled term is fetched with Relay's fetchQuery (through its network and store) and
  // its answers kept here, since they belong to this box until one is picked.
  useEffect(() => {
    if (!term) return;
    const subscription = fetchQuery<UserSearchQuery>(environment, query, { query: term, businessId: businessId ?? null }, { fetchPolicy: "network-only" }).subscribe({
      next: (data) => {
        setError(null);
        setResults({ term, users: data.userSearch });
      },
      error: () => setError("Search failed"),
    });
    return () => subscription.unsubscribe();
  }, [environment, term, businessId]);
  // Only the current term's answers: nothing while a new term is on its way.
  const shown = term && results.term === term ? results.users.filter((u) => !exclude.includes(u.id)) : [];
  return (
    <Stack gap="2">
      <Input placeholder="Search users by username" aria-label="Search users" value={text} onChange={(e) => { setText(e.target.value); onSelect(null); }} />
      {error && <Text color="red.600" fontSize="sm">{error}</Text>}
      {selected ? (
        <Text fontSize="sm">
          Selected: <b>{selected.username}</b> (#{selected.id})
        </Text>
      ) : (
        term &&
        shown.length > 0 && (
          <Box borderWidth="1px" rounded="md" maxH="40" overflowY="auto">
            {shown.map((user) => (
              <Button key={user.id} variant="ghost" size="sm" w="full" justifyContent="flex-start" onClick={() => onSelect(user)}>
                {user.username} <Text as="span" color="fg.muted">#{user.id}</Text>
              </Button>
            ))}
          </Box>
        )
      )}
    </Stack>
  );
}
