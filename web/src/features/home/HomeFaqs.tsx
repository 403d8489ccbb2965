import { Accordion, Box, Container, Heading } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import type { HomeFaqsFragment_page$key } from "./__generated__/HomeFaqsFragment_page.graphql.ts";

const HomeFaqsFragment = graphql`
  fragment HomeFaqsFragment_page on Page {
    faqs {
      q
      a
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
          <Accordion.Item key={i} value={String(i)}>
            <Accordion.ItemTrigger fontWeight="semibold" fontSize="md" py="4">
              <Box flex="1" textAlign="start">
                {faq.q}
              </Box>
              <Accordion.ItemIndicator />
            </Accordion.ItemTrigger>
            <Accordion.ItemContent>
              {/* Answers are HTML sanitised by the server when saved. */}
              <Accordion.ItemBody color="fg.muted" css={{ "& p + p": { mt: "2" }, "& a": { color: "orange.700", textDecoration: "underline" } }} dangerouslySetInnerHTML={{ __html: faq.a }} />
            </Accordion.ItemContent>
          </Accordion.Item>
        ))}
      </Accordion.Root>
    </Container>
  );
}
