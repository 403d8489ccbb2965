import { Box, Button, Heading, List, Stack, Text } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";
import { useDocumentTitle } from "../lib/useDocumentTitle.ts";
import { PageContent } from "../ui/PageShell.tsx";

type Kind = "terms" | "privacy" | "refund";

/** Beside §9's "cancellation by phone only": a business may also take cancellations from the membership page (its SELF_SERVICE policy). */
const SELF_SERVICE_CANCEL = "Where a business offers it, you can also cancel from your membership page.";

const PAGES: Record<Kind, { title: string; sections: { heading: string; items: string[] }[] }> = {
  terms: {
    title: "Terms of Use",
    sections: [
      { heading: "Memberships", items: ["Memberships are monthly and renew automatically on the business's billing day until canceled.", "You can skip a month, change your product, or pause from your membership page while the windows are open.", "Cancellation is by phone only: call the business's support line.", SELF_SERVICE_CANCEL] },
      { heading: "Eligibility", items: ["You must be 18 or older to buy a membership. The service is not directed at children under 18."] },
      { heading: "Liability", items: ["Our liability for any claim is capped at the fees you paid in the 12 months before the claim."] },
      { heading: "Governing law", items: ["These terms are governed by the laws of the State of Ohio."] },
    ],
  },
  privacy: {
    title: "Privacy Policy",
    sections: [
      { heading: "What we collect", items: ["Your account details (username, name, email, phone), delivery address and order history.", "Card details are handled by our payment provider; we never store full card numbers."] },
      { heading: "How we use it", items: ["To run your membership: billing, fulfillment, skip and change requests, and membership updates by email."] },
      { heading: "Children", items: ["We do not knowingly collect data from children under 18."] },
      { heading: "Governing law", items: ["This policy is governed by the laws of the State of Ohio."] },
    ],
  },
  refund: {
    title: "Refund Policy",
    sections: [
      { heading: "Damaged or missing items", items: ["Report damage within 30 days of receiving your box.", "Returns are accepted within 30 days."] },
      { heading: "How refunds work", items: ["We review refund requests within 3 to 5 business days.", "Approved refunds are processed to your original card within 5 to 10 business days."] },
      { heading: "Cancellations", items: ["Cancellation is by phone only. Instead of canceling you can skip a month, change your product, or pause.", SELF_SERVICE_CANCEL] },
    ],
  },
};

/** /terms-of-use, /privacy-policy, /refund-policy: static policy text (spec §9 facts) with a Back to Home link. */
export default function LegalRoute({ kind }: { kind: Kind }) {
  const page = PAGES[kind];
  useDocumentTitle(page.title);
  return (
    <PageContent>
      <Box maxW="3xl" mx="auto" p={{ base: "5", md: "10" }} rounded="2xl" bg="bg" borderWidth="1px">
        <Heading as="h1" size={{ base: "2xl", md: "3xl" }} mb="6">
          {page.title}
        </Heading>
        <Stack gap="6">
          {page.sections.map((s) => (
            <Box as="section" key={s.heading}>
              <Heading as="h2" size="md" mb="2">
                {s.heading}
              </Heading>
              <List.Root gap="1" ps="5">
                {s.items.map((i) => (
                  <List.Item key={i}>
                    <Text>{i}</Text>
                  </List.Item>
                ))}
              </List.Root>
            </Box>
          ))}
        </Stack>
        <Button asChild variant="outline" mt="8">
          <RouterLink to="/">Back to Home</RouterLink>
        </Button>
      </Box>
    </PageContent>
  );
}
