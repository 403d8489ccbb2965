import { useState, type FormEvent } from "react";
import { Box, Button, Field, HStack, Stack, Text, Textarea } from "@chakra-ui/react";
import { graphql, useFragment, useMutation } from "react-relay";
import { MEMBER_NOTE_MAX_CHARS } from "@shared/member-notes.ts";
import { dateTime } from "../../../lib/dates.ts";
import { EmptyLine } from "../../../ui/admin/AdminPage.tsx";
import { FormError } from "../../../ui/FormError.tsx";
import { resultError } from "../mutationResult.ts";
import type { MemberNotesFragment_membership$key } from "./__generated__/MemberNotesFragment_membership.graphql.ts";
import type { MemberNotesAddMutation } from "./__generated__/MemberNotesAddMutation.graphql.ts";

const limit = MEMBER_NOTE_MAX_CHARS.toLocaleString("en-US");

/**
 * The membership's internal notes, newest first, each with its author and time: every staff role reads them; owners,
 * editors and administrators add one (the server checks the text: 1 to 2,000 characters once trimmed).
 */
export function MemberNotes({ membership }: { membership: MemberNotesFragment_membership$key }) {
  const m = useFragment(
    graphql`
      fragment MemberNotesFragment_membership on Membership {
        id
        viewerCan {
          addNote
        }
        notes(first: 50) @connection(key: "MemberNotes_notes") {
          __id
          edges {
            node {
              id
              body
              authorName
              createdAt
            }
          }
        }
      }
    `,
    membership,
  );
  const notes = m.notes.edges.map((e) => e.node);
  return (
    <Stack gap="4">
      {m.viewerCan.addNote ? (
        <NoteForm membershipId={m.id} connection={m.notes.__id} />
      ) : (
        <Text fontSize="sm" color="fg.muted">
          Owners and editors add notes; you can read them.
        </Text>
      )}
      {notes.length === 0 ? (
        <EmptyLine>No notes yet.</EmptyLine>
      ) : (
        <Stack as="ol" listStyleType="none" gap="3" aria-label="Notes, newest first">
          {notes.map((n) => (
            <Box as="li" key={n.id} borderLeftWidth="3px" borderColor="orange.200" ps="3" data-testid="member-note">
              <Text whiteSpace="pre-wrap" overflowWrap="anywhere">
                {n.body}
              </Text>
              <Text fontSize="xs" color="fg.muted" mt="1">
                {n.authorName ?? "A former user"} · {dateTime(n.createdAt)}
              </Text>
            </Box>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function NoteForm({ membershipId, connection }: { membershipId: string; connection: string }) {
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [commit, busy] = useMutation<MemberNotesAddMutation>(graphql`
    mutation MemberNotesAddMutation($input: AddMembershipNoteInput!, $connections: [ID!]!) {
      addMembershipNote(input: $input) {
        __typename
        ... on AddMembershipNoteSuccess {
          data @prependNode(connections: $connections, edgeTypeName: "MembershipNotesConnectionEdge") {
            id
            body
            authorName
            createdAt
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const length = body.trim().length;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    commit({
      variables: { input: { membershipId, body }, connections: [connection] },
      onCompleted: ({ addMembershipNote }) => {
        const failure = resultError(addMembershipNote, "The note could not be saved");
        if (failure) setError(failure);
        else setBody("");
      },
      onError: (err) => setError(err.message || "The note could not be saved"),
    });
  };
  return (
    <Box as="form" onSubmit={submit}>
      <Field.Root invalid={length > MEMBER_NOTE_MAX_CHARS}>
        <Field.Label>New note</Field.Label>
        <Textarea value={body} onChange={(e) => setBody(e.target.value)} rows={3} bg="bg" placeholder="Only the business's staff see notes." />
        <HStack justify="space-between" w="full" mt="1" gap="3">
          <Field.HelperText>
            {length.toLocaleString("en-US")} / {limit}
          </Field.HelperText>
          <Button type="submit" size="sm" colorPalette="orange" loading={busy} loadingText="Adding…" disabled={length === 0 || length > MEMBER_NOTE_MAX_CHARS}>
            Add note
          </Button>
        </HStack>
      </Field.Root>
      <FormError mt="2">{error}</FormError>
    </Box>
  );
}
