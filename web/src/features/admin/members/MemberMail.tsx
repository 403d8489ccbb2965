import { useState } from "react";
import { Badge, Box, Button, Flex, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { EmptyLine } from "../../../ui/admin/AdminPage.tsx";
import { MailMessageDialog } from "../mail/MailMessageDialog.tsx";
import { MAIL_STATUS, mailTime } from "../mail/mailStatus.ts";
import type { MemberMailFragment_membership$key } from "./__generated__/MemberMailFragment_membership.graphql.ts";

/**
 * What the business emailed the member (its Sent mail rows for them, newest first; account mail is not the
 * business's), each opening as the member saw it. Only for readers of the business's mail (owners and
 * administrators): others are told so.
 */
export function MemberMail({ membership }: { membership: MemberMailFragment_membership$key }) {
  const m = useFragment(
    graphql`
      fragment MemberMailFragment_membership on Membership {
        sentMail(first: 20) {
          edges {
            node {
              id
              status
              templateName
              subject
              toAddress
              resent
              createdAt
            }
          }
        }
      }
    `,
    membership,
  );
  const [open, setOpen] = useState<string | null>(null);
  if (!m.sentMail) return <EmptyLine>Only the business's owners see its mail.</EmptyLine>;
  const rows = m.sentMail.edges.map((e) => e.node);
  if (rows.length === 0) return <EmptyLine>No messages yet.</EmptyLine>;
  return (
    <>
      <Stack as="ul" listStyleType="none" gap="0">
        {rows.map((r) => {
          const status = MAIL_STATUS[r.status];
          return (
            <Flex as="li" key={r.id} justify="space-between" align="center" gap="3" py="2" borderTopWidth="1px" borderColor="border.muted" _first={{ borderTopWidth: 0 }} data-testid="member-mail">
              <Box minW="0">
                <Text fontWeight="medium">
                  {r.templateName}
                  {r.resent && (
                    <Badge ms="2" size="sm" variant="outline">
                      Resent
                    </Badge>
                  )}
                </Text>
                <Text fontSize="sm" color="fg.muted" truncate title={r.subject}>
                  {r.subject}
                </Text>
                <Text fontSize="xs" color="fg.muted">
                  {mailTime(r.createdAt)} · <Badge colorPalette={status.palette} size="sm">{status.label}</Badge>
                </Text>
              </Box>
              <Button size="xs" variant="outline" flexShrink="0" onClick={() => setOpen(r.id)} aria-label={`View ${r.templateName} to ${r.toAddress || "no address"}`}>
                View
              </Button>
            </Flex>
          );
        })}
      </Stack>
      {open && <MailMessageDialog id={open} connections={[]} onClose={() => setOpen(null)} />}
    </>
  );
}
