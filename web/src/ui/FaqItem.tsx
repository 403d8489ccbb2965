import { Accordion, Box, type AccordionItemTriggerProps } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { RichHtml } from "./RichHtml.tsx";
import type { FaqItemFragment_faq$key } from "./__generated__/FaqItemFragment_faq.graphql.ts";

/** One question of a FAQ accordion (the home page's and each business page's): the question opens its answer. */
export function FaqItem({ faq, value, ...triggerProps }: { faq: FaqItemFragment_faq$key; value: string } & Omit<AccordionItemTriggerProps, "children">) {
  const { q, a } = useFragment(
    graphql`
      fragment FaqItemFragment_faq on Faq {
        q
        a
      }
    `,
    faq,
  );
  return (
    <Accordion.Item value={value}>
      <Accordion.ItemTrigger fontWeight="semibold" {...triggerProps}>
        <Box flex="1" textAlign="start">
          {q}
        </Box>
        <Accordion.ItemIndicator />
      </Accordion.ItemTrigger>
      <Accordion.ItemContent>
        <Accordion.ItemBody color="fg.muted">
          {/* Answers are HTML rendered and sanitised by the server when saved. */}
          <RichHtml html={a} />
        </Accordion.ItemBody>
      </Accordion.ItemContent>
    </Accordion.Item>
  );
}
