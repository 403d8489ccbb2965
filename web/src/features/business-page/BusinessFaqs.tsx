import { Accordion, Box, Heading } from "@chakra-ui/react";
import { useState } from "react";
import { graphql, useFragment } from "react-relay";
import { RichHtml } from "../../ui/RichHtml.tsx";
import type { BusinessFaqsFragment_page$key } from "./__generated__/BusinessFaqsFragment_page.graphql.ts";

const BusinessFaqsFragment = graphql`
  fragment BusinessFaqsFragment_page on Page {
    faqs {
      q
      a
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
          <Accordion.Item key={i} value={`faq-${i}`}>
            <Accordion.ItemTrigger fontWeight="semibold" cursor="pointer" _focusVisible={{ outline: "3px solid", outlineColor: "blue.500" }}>
              <Box flex="1" textAlign="start">
                {faq.q}
              </Box>
              <Accordion.ItemIndicator />
            </Accordion.ItemTrigger>
            <Accordion.ItemContent>
              <Accordion.ItemBody color="fg.muted">
                <RichHtml html={faq.a} />
              </Accordion.ItemBody>
            </Accordion.ItemContent>
          </Accordion.Item>
        ))}
      </Accordion.Root>
    </Box>
  );
}
