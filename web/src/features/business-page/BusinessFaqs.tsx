import { Accordion, Box, Heading } from "@chakra-ui/react";
import { useState } from "react";
import { graphql, useFragment } from "react-relay";
import { FaqItem } from "../../ui/FaqItem.tsx";
import type { BusinessFaqsFragment_page$key } from "./__generated__/BusinessFaqsFragment_page.graphql.ts";

const BusinessFaqsFragment = graphql`
  fragment BusinessFaqsFragment_page on Page {
    faqs {
      ...FaqItemFragment_faq
    }
  }
`;

/** Spec §2: FAQ accordion, one item open at a time, the first open initially. */
export function BusinessFaqs({ page }: { page: BusinessFaqsFragment_page$key }) {
  const { faqs } = useFragment(BusinessFaqsFragment, page);
  const [open, setOpen] = useState<string[]>(["faq-0"]);
  if (faqs.length === 0) return null;
  return (
    <Box as="section" aria-labelledby="business-faqs">
      <Heading id="business-faqs" as="h2" size="xl" mb="4">
        Frequently asked questions
      </Heading>
      <Accordion.Root value={open} onValueChange={(e) => setOpen(e.value)} collapsible multiple={false} variant="enclosed" bg="bg" color="fg" rounded="xl">
        {faqs.map((faq, i) => (
          <FaqItem key={i} faq={faq} value={`faq-${i}`} cursor="pointer" _focusVisible={{ outline: "3px solid", outlineColor: "blue.500" }} />
        ))}
      </Accordion.Root>
    </Box>
  );
}
