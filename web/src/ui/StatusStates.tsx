import type { ReactNode } from "react";
import { Button, EmptyState, Spinner, Stack, Text, VStack } from "@chakra-ui/react";

export function LoadingState({ label }: { label: string }) {
  return (
    <VStack py="16" gap="3" role="status" aria-live="polite">
      <Spinner size="lg" color="orange.600" borderWidth="3px" />
      <Text color="fg.muted">{label}</Text>
    </VStack>
  );
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <Stack role="alert" align="center" textAlign="center" py="12" px="6" gap="4" bg="red.50" borderWidth="1px" borderColor="red.200" rounded="xl">
      <Text color="red.800" fontWeight="medium">
        {message}
      </Text>
      {onRetry && (
        <Button colorPalette="red" variant="outline" onClick={onRetry}>
          Try Again
        </Button>
      )}
    </Stack>
  );
}

export function EmptyMessage({ title, titleAs, description, icon, children }: { title: string; titleAs?: "h1" | "h2" | "h3"; description?: string; icon?: ReactNode; children?: ReactNode }) {
  return (
    <EmptyState.Root borderWidth="1px" borderStyle="dashed" rounded="xl" bg="bg">
      <EmptyState.Content>
        {icon && <EmptyState.Indicator>{icon}</EmptyState.Indicator>}
        <VStack textAlign="center">
          <EmptyState.Title as={titleAs} fontSize="lg">{title}</EmptyState.Title>
          {description && <EmptyState.Description>{description}</EmptyState.Description>}
        </VStack>
        {children}
      </EmptyState.Content>
    </EmptyState.Root>
  );
}
