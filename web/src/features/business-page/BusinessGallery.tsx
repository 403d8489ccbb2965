import { Box, HStack, IconButton, Image } from "@chakra-ui/react";
import { useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { graphql, useFragment } from "react-relay";
import type { BusinessGalleryFragment_page$key } from "./__generated__/BusinessGalleryFragment_page.graphql.ts";
import { responsiveImage } from "../businesses/responsiveImage.ts";

const BusinessGalleryFragment = graphql`
  fragment BusinessGalleryFragment_page on Page {
    brandName
    gallery {
      url
    }
  }
`;

/**
 * Width the gallery is shown at: the hero's right column from lg (half of the 6xl container, less its gap), the
 * full width below.
 */
const GALLERY_SIZES = "(min-width: 64em) 36rem, 100vw";

/** Spec §9 gallery swipe threshold. */
const SWIPE_THRESHOLD_PX = 50;

/** Next index with wraparound (delta ±1). */
function wrapIndex(index: number, delta: number, count: number): number {
  return count === 0 ? 0 : (((index + delta) % count) + count) % count;
}

/** The business gallery: cycles with wraparound by buttons, arrow keys, dots, or a swipe of more than 50 px. */
export function BusinessGallery({ page }: { page: BusinessGalleryFragment_page$key }) {
  const data = useFragment(BusinessGalleryFragment, page);
  const images = data.gallery;
  const [index, setIndex] = useState(0);
  const startX = useRef<number | null>(null);
  if (images.length === 0) return null;
  const current = Math.min(index, images.length - 1);
  const go = (delta: number) => setIndex((i) => wrapIndex(Math.min(i, images.length - 1), delta, images.length));

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowLeft") go(-1);
    else if (e.key === "ArrowRight") go(1);
    else return;
    e.preventDefault();
  };
  const onPointerDown = (e: PointerEvent) => {
    startX.current = e.clientX;
  };
  const onPointerUp = (e: PointerEvent) => {
    if (startX.current === null) return;
    const dx = e.clientX - startX.current;
    startX.current = null;
    if (Math.abs(dx) > SWIPE_THRESHOLD_PX) go(dx < 0 ? 1 : -1);
  };

  return (
    <Box
      as="section"
      aria-roledescription="carousel"
      aria-label={`${data.brandName} gallery`}
      position="relative"
      rounded="2xl"
      overflow="hidden"
      shadow="md"
      tabIndex={0}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerUp={onPointerUp}
      onPointerCancel={() => (startX.current = null)}
      style={{ touchAction: "pan-y" }}
      data-testid="gallery"
      _focusVisible={{ outline: "3px solid", outlineColor: "blue.500", outlineOffset: "2px" }}
    >
      {/* The largest image of the page when it opens (LCP): loaded at once and first; its 4:3 box is reserved. */}
      <Image
        {...responsiveImage(images[current].url, GALLERY_SIZES)}
        alt={`${data.brandName} photo ${current + 1} of ${images.length}`}
        htmlWidth={1280}
        htmlHeight={960}
        loading="eager"
        fetchPriority="high"
        w="full"
        h="auto"
        aspectRatio={4 / 3}
        objectFit="cover"
        draggable={false}
        userSelect="none"
        data-testid="gallery-image"
        data-index={current}
      />
      {images.length > 1 && (
        <>
          <IconButton aria-label="Previous image" position="absolute" left="3" top="50%" transform="translateY(-50%)" rounded="full" size="sm" bg="white/85" color="gray.900" _hover={{ bg: "white" }} onClick={() => go(-1)}>
            <Chevron dir="left" />
          </IconButton>
          <IconButton aria-label="Next image" position="absolute" right="3" top="50%" transform="translateY(-50%)" rounded="full" size="sm" bg="white/85" color="gray.900" _hover={{ bg: "white" }} onClick={() => go(1)}>
            <Chevron dir="right" />
          </IconButton>
          {/* Each dot is a 48 px wide, 32 px high button (tap targets 48 px apart); the dot drawn inside it. */}
          <HStack position="absolute" bottom="0" left="0" right="0" justify="center" gap="0">
            {images.map((img, i) => (
              <Box
                as="button"
                key={`${img.url}-${i}`}
                aria-label={`Show image ${i + 1}`}
                aria-current={i === current ? "true" : undefined}
                w="12"
                h="8"
                display="flex"
                alignItems="center"
                justifyContent="center"
                cursor="pointer"
                onClick={() => setIndex(i)}
              >
                <Box as="span" display="block" w={i === current ? "6" : "2.5"} h="2.5" rounded="full" bg={i === current ? "white" : "white/60"} transition="width 0.2s" />
              </Box>
            ))}
          </HStack>
        </>
      )}
    </Box>
  );
}

function Chevron({ dir }: { dir: "left" | "right" }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
      <path d={dir === "left" ? "M15 18l-6-6 6-6" : "M9 18l6-6-6-6"} />
    </svg>
  );
}
