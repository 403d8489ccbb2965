import { Button, HStack, Text } from "@chakra-ui/react";

/** Page size of the admin lists: one screenful of rows per request, more on demand. */
export const ADMIN_PAGE_SIZE = 50;

/**
 * The foot of a paged admin list: how many rows are shown and, while the server has more, a Load more button
 * (the next page is appended; filters and search apply to every page).
 */
export function LoadMore({ shown, noun, hasNext, isLoadingNext, onLoadMore }: { shown: number; noun: [string, string]; hasNext: boolean; isLoadingNext: boolean; onLoadMore: () => void }) {
  if (shown === 0) return null;
  return (
    <HStack justify="space-between" gap="3" wrap="wrap" pt="2">
      <Text color="fg.muted" fontSize="sm" data-testid="list-count">
        Showing {shown} {shown === 1 ? noun[0] : noun[1]}
        {hasNext ? " · more to load" : ""}
      </Text>
      {hasNext && (
        <Button size="sm" variant="outline" loading={isLoadingNext} loadingText="Loading…" onClick={onLoadMore}>
          Load more
        </Button>
      )}
    </HStack>
  );
}
