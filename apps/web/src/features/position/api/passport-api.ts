import { type Language, PRODUCT_NAME } from '@vez/contract';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /product-user/oauth2/passport: trades the SMS link's single-use passport for a session
 * cookie. Its own chunk: only a link that carries a passport loads it.
 */
export function exchangePassport(passport: string, lng: Language): Promise<unknown> {
  return apiRequest('/product-user/oauth2/passport', {
    method: 'POST',
    body: { passport, productName: PRODUCT_NAME, lang: lng },
    credentials: true,
  });
}
