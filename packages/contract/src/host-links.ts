/**
 * Where the venue's QR code points: the join page (docs/product.md §12). Kept apart from the schemas
 * (no zod here), so the host console's chunk can use it without pulling zod into shared chunks.
 */
export const joinPageUrl = (origin: string, venueId: string): string => `${origin.replace(/\/$/, '')}/remote-waitlist/${venueId}`;

/**
 * The console page an invitation email links to (docs/decisions/023-staff-roles.md); the token is
 * the invitation's secret, so the link is the only place it appears.
 */
export const staffInvitePath = (token: string): string => `/host/invite/${encodeURIComponent(token)}`;
