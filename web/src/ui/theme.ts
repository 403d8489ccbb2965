import { createSystem, defaultBaseConfig, defineConfig } from "@chakra-ui/react";
import {
  accordionSlotRecipe,
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  statSlotRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe,
  textStyles,
  tokens,
} from "@chakra-ui/react/theme";

/**
 * Chakra's default theme with only the component recipes this app renders. `defaultConfig` carries the recipes
 * of all ~75 Chakra components (~120 kB minified, loaded before any page renders); tokens, semantic tokens,
 * text/layer/animation styles and global CSS stay exactly the defaults. Every recipe key that a component
 * imported in web/src reads must be listed here: theme.test.ts checks it, so a newly used component cannot
 * render unstyled.
 */
const recipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  checkmark: checkmarkRecipe,
  code: codeRecipe,
  container: containerRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  link: linkRecipe,
  separator: separatorRecipe,
  skeleton: skeletonRecipe,
  spinner: spinnerRecipe,
  textarea: textareaRecipe,
};

const slotRecipes = {
  accordion: accordionSlotRecipe,
  alert: alertSlotRecipe,
  avatar: avatarSlotRecipe,
  card: cardSlotRecipe,
  checkbox: checkboxSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  field: fieldSlotRecipe,
  fieldset: fieldsetSlotRecipe,
  list: listSlotRecipe,
  menu: menuSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
  stat: statSlotRecipe,
  switch: switchSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
};

const themeConfig = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: { breakpoints, keyframes, tokens, semanticTokens, recipes, slotRecipes, textStyles, layerStyles, animationStyles },
});

/**
 * The platform's look: warm neutrals with the spec's default orange as the brand colour. Solid orange and green
 * (white text) are a shade darker than Chakra's 600 (3.6:1 and 3.3:1 with white, below WCAG's 4.5:1) but lighter
 * than its 700 (a brown): #c2410c, the brand mark's orange, gives 5.2:1 and #15803d 5.0:1. Solid buttons darken
 * on hover instead of fading to 90 % (which would lighten them back under 4.5:1).
 */
export const appConfig = defineConfig({
  globalCss: {
    "html, body": { bg: "#fffaf5", color: "fg", minHeight: "100%" },
  },
  theme: {
    semanticTokens: {
      colors: {
        orange: { solid: { value: { _light: "#c2410c", _dark: "{colors.orange.500}" } } },
        green: { solid: { value: { _light: "#15803d", _dark: "{colors.green.600}" } } },
      },
    },
    recipes: {
      button: {
        variants: {
          variant: {
            solid: { _hover: { bg: "colorPalette.solid", filter: "brightness(0.9)" }, _expanded: { bg: "colorPalette.solid", filter: "brightness(0.9)" } },
          },
        },
      },
    },
    tokens: {
      fonts: {
        heading: { value: "'Iowan Old Style', 'Palatino Linotype', Palatino, Georgia, serif" },
        body: { value: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
      },
    },
  },
});

export const system = createSystem(defaultBaseConfig, themeConfig, appConfig);

/**
 * `system` as the app's root provides it: without its global styles, which ChakraProvider would serialise and
 * insert at startup (preflight, global CSS, keyframes, every token's CSS variable). main.tsx loads them as the
 * stylesheet web/vite.config.ts builds from `system` (`virtual:chakra-global.css`) instead. Tests render
 * `system` itself, global styles included.
 */
export const appSystem: typeof system = Object.defineProperties({} as typeof system, {
  // Copied as descriptors: the production build makes `_global` a getter (web/vite.config.ts
  // lazyChakraGlobals) that a spread would call.
  ...Object.getOwnPropertyDescriptors(system),
  _global: { value: [], enumerable: true },
});
