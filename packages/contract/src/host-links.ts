/**
 * Where the venue's QR code points: the join page (docs/product.md §12). Kept apart from the schemas
 * (no zod here), so the host console's chunk can use it without pulling zod into shared chunks.
 */
export const joinPageUrl = (origin: string, venueId: string): string => `${origin.replace(/\/$/, '')}/remote-waitlist/${venueId}`;
