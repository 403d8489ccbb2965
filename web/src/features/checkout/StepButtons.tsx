import { Button, Flex } from "@chakra-ui/react";

/** A checkout step's way back and its submit button (stacked on phones with the submit on top). */
export function StepButtons({ backLabel, onBack, continueLabel, busy = false }: { backLabel: string; onBack: () => void; continueLabel: string; busy?: boolean }) {
  return (
    <Flex justify="space-between" gap="3" pt="2" direction={{ base: "column-reverse", sm: "row" }}>
      <Button variant="outline" onClick={onBack}>
        {backLabel}
      </Button>
      <Button type="submit" colorPalette="orange" loading={busy}>
        {continueLabel}
      </Button>
    </Flex>
  );
}
