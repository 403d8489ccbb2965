import { Box, Heading, Text } from "@chakra-ui/react";
import type { PaymentConfigLike } from "../payments/CardPaymentForm.tsx";

/** Card on file. The card update flow arrives with the API's startCardUpdate/finishCardUpdate. */
export function CardUpdateSection(_props: { paymentConfig: PaymentConfigLike }) {
  return (
    <Box as="section" p={{ base: "4", md: "6" }} rounded="xl" bg="bg" borderWidth="1px">
      <Heading as="h2" size="lg" mb="2">
        Payment card
      </Heading>
      <Text color="fg.muted">Your card on file is charged each month on your billing day.</Text>
    </Box>
  );
}
