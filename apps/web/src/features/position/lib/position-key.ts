import { queryKeys } from '../../../lib/query-client';

/** The cache key of one entry's position in one language (texts like the party label are localised). */
export const positionKey = (waitlistId: string, lng: string) => [...queryKeys.position(waitlistId), lng] as const;
