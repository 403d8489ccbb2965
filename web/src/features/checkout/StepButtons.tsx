import { Button, Flex } from "@chakra-ui/react";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";

/** A checkout step's way back and its submit button (stacked on phones with the submit on top). */
export function StepButtons({ backLabel, onBack, continueLabel, busy = false }: { backLabel: string; onBack: () => void; continueLabel: string; busy?: boolean }) {
  const primary = usePrimaryButton();
  return (
    <Flex justify="space-between" gap="3" pt="2" direction={{ base: "column-reverse", sm: "row" }}>
      <Button variant="outline" onClick={onBack}>
        {backLabel}
      </Button>
      <Button type="submit" {...primary} loading={busy}>
        {continueLabel}
      </Button>
    </Flex>
  );
}
