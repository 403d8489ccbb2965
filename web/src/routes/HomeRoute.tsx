import { Box, Button, Container, Heading, HStack, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { Suspense } from "react";
import { graphql } from "react-relay";
import { Link as RouterLink } from "react-router";
import type { HomeRouteQuery } from "./__generated__/HomeRouteQuery.graphql.ts";
import { HomeFaqs } from "../features/home/HomeFaqs.tsx";
import { ErrorBoundary } from "../ui/ErrorBoundary.tsx";
import { useRouteQuery } from "../lib/routeQuery.ts";
import { useDocumentTitle } from "../lib/useDocumentTitle.ts";
import { HeroIllustration } from "../features/home/HeroIllustration.tsx";

const STEPS = [
  { title: "Pick a business", text: "Browse local farms, coffee roasters and bakeries that offer a monthly box." },
  { title: "Choose your box", text: "Select a package and optional add-ons, then pickup, shipping or delivery." },
  { title: "Enjoy every month", text: "You are billed monthly. Skip a month or change your box from your membership page." },
];

const FEATURES = [
  { title: "Skip when you travel", text: "Pause a month while the skip window is open; your membership resumes by itself." },
  { title: "Change anytime", text: "Switch package, add-ons or fulfillment for the next billing cycle, with no charge today." },
  { title: "Clear pricing", text: "One monthly price per box, tax shown up front, every order in your history." },
];

/** Fulfillment modes a box can take (pickup, shipping, delivery): the one figure that is not counted. */
const WAYS_TO_GET_YOUR_BOX = 3;

/** Spec §2: one static testimonial after the features showcase. */
const TESTIMONIAL = {
  quote: "Our farm share shows up like clockwork, and when we travel I skip a month in two clicks. It's the easiest way we've found to eat from our own county.",
  name: "Maya R.",
  detail: "Green Acres Farm member since 2024",
};

const HomeQuery = graphql`
  query HomeRouteQuery {
    homePage {
      ...HomeFaqsFragment_page
    }
    platformStats {
      businesses
      members
      boxesDelivered
    }
  }
`;

type Stats = HomeRouteQuery["response"]["platformStats"];

/** US English like the rest of the app's figures: 1,204. */
const count = new Intl.NumberFormat("en-US");

/** The stats under the hero (spec §2): what the database counts, never invented figures; null while loading. */
function statsOf(stats: Stats | null) {
  const value = (n: number | undefined) => (n === undefined ? "…" : count.format(n));
  return [
    { label: "Local businesses", value: value(stats?.businesses) },
    { label: "Members", value: value(stats?.members) },
    { label: "Boxes delivered", value: value(stats?.boxesDelivered) },
    { label: "Ways to get your box", value: String(WAYS_TO_GET_YOUR_BOX) },
  ];
}

function StatsGrid({ stats }: { stats: Stats | null }) {
  return (
    <SimpleGrid as="dl" columns={{ base: 2, md: 4 }} gap={{ base: "6", md: "8" }} data-testid="home-stats" aria-busy={stats === null}>
      {statsOf(stats).map((stat) => (
        <Stack key={stat.label} gap="1" textAlign="center">
          <Text as="dt" order={2} color="fg.muted" fontSize="sm">
            {stat.label}
          </Text>
          <Text as="dd" order={1} fontSize={{ base: "2xl", md: "3xl" }} fontWeight="bold" color="orange.700">
            {stat.value}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}

function LiveStats() {
  const { platformStats } = useRouteQuery<HomeRouteQuery>(HomeQuery, {});
  return <StatsGrid stats={platformStats} />;
}

/** Home page content (FAQs) loads after the static sections; a failure leaves them out (spec §8). */
function HomeContent() {
  const { homePage } = useRouteQuery<HomeRouteQuery>(HomeQuery, {});
  return <HomeFaqs page={homePage} />;
}

/** / on the main host: hero, how it works, features and a call to action (spec §2 Home page). */
export default function HomeRoute() {
  useDocumentTitle(null);
  return (
    <>
      <Box as="section" bgGradient="to-br" gradientFrom="orange.50" gradientTo="yellow.50" borderBottomWidth="1px" borderColor="orange.100">
        <Container maxW="6xl" py={{ base: "12", md: "20" }}>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap={{ base: "10", md: "12" }} alignItems="center">
            <Stack gap="6">
              <Text textTransform="uppercase" letterSpacing="widest" fontSize="sm" fontWeight="semibold" color="orange.700">
                Monthly membership boxes
              </Text>
              <Heading as="h1" fontSize={{ base: "4xl", md: "5xl" }} lineHeight="1.1" letterSpacing="tight">
                The best of your local makers, delivered every month
              </Heading>
              <Text fontSize={{ base: "lg", md: "xl" }} color="fg.muted" maxW="xl">
                Join a farm share, a coffee club or a bread subscription from independent businesses. Pick up,
                ship or have it delivered; skip or change your box whenever life happens.
              </Text>
              <Stack direction={{ base: "column", sm: "row" }} gap="3">
                <Button asChild colorPalette="orange" size="xl">
                  <RouterLink to="/businesses">Start Your Membership</RouterLink>
                </Button>
                <Button asChild variant="outline" size="xl" bg="bg">
                  <RouterLink to="/membership">Login</RouterLink>
                </Button>
              </Stack>
            </Stack>
            <HeroIllustration />
          </SimpleGrid>
        </Container>
      </Box>

      {/* While the counts load the grid keeps its place ("…"); if they fail, the section is left out (spec §8). */}
      <ErrorBoundary fallback={() => null}>
        <Box as="section" aria-label="Membership stats" borderBottomWidth="1px" borderColor="orange.100">
          <Container maxW="6xl" py={{ base: "8", md: "10" }}>
            <Suspense fallback={<StatsGrid stats={null} />}>
              <LiveStats />
            </Suspense>
          </Container>
        </Box>
      </ErrorBoundary>

      <Container as="section" maxW="6xl" py={{ base: "12", md: "20" }} aria-labelledby="how-it-works">
        <Heading as="h2" id="how-it-works" size={{ base: "2xl", md: "3xl" }} textAlign="center" mb={{ base: "8", md: "12" }}>
          How it works
        </Heading>
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="8">
          {STEPS.map((step, i) => (
            <Stack key={step.title} gap="3" align={{ base: "flex-start", md: "center" }} textAlign={{ base: "left", md: "center" }}>
              <HStack justify="center" w="12" h="12" rounded="full" bg="orange.solid" color="white" fontWeight="bold" fontSize="lg">
                <span>{i + 1}</span>
              </HStack>
              <Heading as="h3" size="lg">
                {step.title}
              </Heading>
              <Text color="fg.muted" maxW="xs">
                {step.text}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Container>

      <Box as="section" bg="orange.50" borderYWidth="1px" borderColor="orange.100">
        <Container maxW="6xl" py={{ base: "12", md: "16" }}>
          <SimpleGrid columns={{ base: 1, md: 3 }} gap="6">
            {FEATURES.map((f) => (
              <Stack key={f.title} gap="2" bg="bg" p="6" rounded="2xl" borderWidth="1px" borderColor="orange.100">
                <Heading as="h3" size="md">
                  {f.title}
                </Heading>
                <Text color="fg.muted">{f.text}</Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Container>
      </Box>

      <Container as="section" maxW="3xl" py={{ base: "12", md: "16" }} aria-label="What members say">
        <Box as="figure" textAlign="center" data-testid="home-testimonial">
          <Text as="blockquote" fontSize={{ base: "lg", md: "2xl" }} fontStyle="italic" lineHeight="1.5">
            “{TESTIMONIAL.quote}”
          </Text>
          <Text as="figcaption" mt="4" color="fg.muted">
            <Text as="span" fontWeight="semibold" color="fg">
              {TESTIMONIAL.name}
            </Text>
            , {TESTIMONIAL.detail}
          </Text>
        </Box>
      </Container>

      <ErrorBoundary fallback={() => null}>
        <Suspense fallback={null}>
          <HomeContent />
        </Suspense>
      </ErrorBoundary>

      <Container as="section" maxW="3xl" py={{ base: "12", md: "20" }} textAlign="center">
        <Heading as="h2" size={{ base: "2xl", md: "3xl" }} mb="4">
          Ready for your first box?
        </Heading>
        <Text color="fg.muted" fontSize="lg" mb="8">
          Memberships renew monthly and can be skipped or changed from your account.
        </Text>
        <Button asChild colorPalette="orange" size="xl">
          <RouterLink to="/businesses">Browse businesses</RouterLink>
        </Button>
      </Container>
    </>
  );
}
