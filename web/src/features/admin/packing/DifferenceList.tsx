import { Badge, Box, HStack, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import type { DifferenceListFragment$key } from "./__generated__/DifferenceListFragment.graphql.ts";

const KIND_WORDS: Record<string, [string, string]> = { ADDED: ["Added", "green"], REMOVED: ["Removed", "red"], CHANGED: ["Changed", "orange"], PAYMENT: ["Payment", "yellow"] };

/** After the freeze: what changed the month since its packing snapshot (the lists stay as frozen). */
export function DifferenceList({ cycle: key }: { cycle: DifferenceListFragment$key }) {
  const { differences } = useFragment(
    graphql`
      fragment DifferenceListFragment on FulfilmentCycle {
        differences {
          kind
          membershipId
          memberName
          changes
        }
      }
    `,
    key,
  );
  if (!differences || differences.length === 0) return <Text color="fg.muted">No changes since the freeze.</Text>;
  return (
    <Stack as="ul" gap="2" listStyleType="none" data-testid="differences">
      {differences.map((d) => {
        const [word, color] = KIND_WORDS[d.kind] ?? [d.kind, "gray"];
        return (
          <Box as="li" key={`${d.kind}-${d.membershipId}`} borderWidth="1px" rounded="md" p="3">
            <HStack gap="2" wrap="wrap">
              <Badge colorPalette={color}>{word}</Badge>
              <Text fontWeight="semibold">{d.memberName}</Text>
            </HStack>
            <Text fontSize="sm" mt="1">
              {d.changes.join(" · ")}
            </Text>
          </Box>
        );
      })}
    </Stack>
  );
}
