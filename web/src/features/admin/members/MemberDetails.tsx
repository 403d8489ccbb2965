import { Link, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatDate } from "../format.ts";
import { Fact, FactList } from "./FactList.tsx";
import type { MemberDetailsFragment_membership$key } from "./__generated__/MemberDetailsFragment_membership.graphql.ts";

/** Who the member is: full name, username, email, phone, member since (the start of their first membership here). */
export function MemberDetails({ membership }: { membership: MemberDetailsFragment_membership$key }) {
  const m = useFragment(
    graphql`
      fragment MemberDetailsFragment_membership on Membership {
        memberName
        username
        email
        memberPhone
        memberSince
      }
    `,
    membership,
  );
  return (
    <FactList label="Member">
      <Fact label="Full name">{m.memberName}</Fact>
      <Fact label="Username">
        <Text>{m.username}</Text>
      </Fact>
      <Fact label="Email">{m.email && <Link href={`mailto:${m.email}`}>{m.email}</Link>}</Fact>
      <Fact label="Phone">{m.memberPhone && <Link href={`tel:${m.memberPhone}`}>{m.memberPhone}</Link>}</Fact>
      <Fact label="Member since">{formatDate(m.memberSince)}</Fact>
    </FactList>
  );
}
