import { uploadSrcSet } from "@shared/image-variants.ts";

/**
 * What an <img> needs to load a business image at the size it is shown (a phone loads no desktop-sized file): the
 * stored URL as `src` (what every browser, and any upload without variants, falls back to) and, for uploads the
 * server resizes, their WebP widths as `srcSet` with the layout's `sizes`. Demo SVGs and images on other hosts stay as they are.
 */
export function responsiveImage(url: string, sizes: string): { src: string; srcSet?: string; sizes?: string } {
  const srcSet = uploadSrcSet(url);
  return srcSet ? { src: url, srcSet, sizes } : { src: url };
}
