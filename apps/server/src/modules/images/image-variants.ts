/**
 * The only widths and qualities the image host converts to (docs/security.md): any other asked
 * value is snapped to one of these, so the conversions and the cache hold a fixed, small set of
 * variants per image whatever URLs a client invents. They include what the web app asks for:
 * the header's srcset widths (HEADER_IMAGE_WIDTHS) and IMAGE_QUALITY (a test checks both).
 */
export const IMAGE_WIDTHS = [100, 200, 320, 480, 640, 800, 1200, 1600, 2000] as const;
export const IMAGE_QUALITIES = [30, 40, 50, 60, 70, 80, 90] as const;

/** The smallest allowed width at or above `width` (never a smaller image than asked); the largest caps. */
export function snapWidth(width: number): number {
  return IMAGE_WIDTHS.find((w) => w >= width) ?? 2000;
}

/** The nearest allowed quality (a tie goes to the higher one). */
export function snapQuality(quality: number): number {
  let best: number = IMAGE_QUALITIES[0];
  for (const q of IMAGE_QUALITIES) if (Math.abs(q - quality) <= Math.abs(best - quality)) best = q;
  return best;
}
