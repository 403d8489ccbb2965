import type { ReactNode } from "react";
import { Box, Grid, Text } from "@chakra-ui/react";

/** The member page's label–value pairs: a description list, two columns from a tablet's width, stacked on a phone. */
export function FactList({ children, label }: { children: ReactNode; label: string }) {
  return (
    <Grid as="dl" aria-label={label} templateColumns={{ base: "1fr", sm: "minmax(8rem, 12rem) 1fr" }} columnGap="4" rowGap={{ base: "0", sm: "2.5" }}>
      {children}
    </Grid>
  );
}

/** One pair; an empty value reads "—". */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  const empty = children === null || children === undefined || children === "" || children === false;
  return (
    <>
      <Text as="dt" color="fg.muted" fontSize="sm" pt={{ base: "2", sm: "0.5" }}>
        {label}
      </Text>
      <Box as="dd" minW="0" overflowWrap="anywhere">
        {empty ? "—" : children}
      </Box>
    </>
  );
}
