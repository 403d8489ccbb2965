import { Box, Button, HStack, Text } from "@chakra-ui/react";

/** Spec §2: the 'Payment Error:' box with Try Again. */
export function PaymentErrorBox({ message, onRetry, title = "Payment Error:" }: { message: string; onRetry: () => void; title?: string }) {
  return (
    <Box role="alert" p="4" rounded="lg" bg="red.50" borderWidth="1px" borderColor="red.200" color="red.900">
      <Text>
        <Text as="strong">{title}</Text> {message}
      </Text>
      <HStack mt="3">
        <Button size="sm" colorPalette="red" variant="outline" onClick={onRetry}>
          Try Again
        </Button>
      </HStack>
    </Box>
  );
}
