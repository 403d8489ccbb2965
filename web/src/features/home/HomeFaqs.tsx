import { Accordion, Container, Heading } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { FaqItem } from "../../ui/FaqItem.tsx";
import type { HomeFaqsFragment_page$key } from "./__generated__/HomeFaqsFragment_page.graphql.ts";

const HomeFaqsFragment = graphql`
  fragment HomeFaqsFragment_page on Page {
    faqs {
      ...FaqItemFragment_faq
    }
  }
`;

/** The optional FAQ accordion of the home page content (spec §2): one item open at a time, the first initially. */
export function HomeFaqs({ page }: { page: HomeFaqsFragment_page$key }) {
  const { faqs } = useFragment(HomeFaqsFragment, page);
  if (faqs.length === 0) return null;
  return (
    <Container as="section" maxW="3xl" pt={{ base: "12", md: "20" }} aria-labelledby="home-faqs">
      <Heading as="h2" id="home-faqs" size={{ base: "2xl", md: "3xl" }} textAlign="center" mb="8">
        Frequently asked questions
      </Heading>
      <Accordion.Root collapsible defaultValue={["0"]} variant="enclosed" bg="bg" rounded="xl">
        {faqs.map((faq, i) => (
          <FaqItem key={i} faq={faq} value={String(i)} fontSize="md" py="4" />
        ))}
      </Accordion.Root>
    </Container>
  );
}
