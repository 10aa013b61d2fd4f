import type { PushKeyResponse } from '@vez/contract';
import { apiGet, apiRequest } from '../../../lib/api-client';
import { addTranslations } from '../../../lib/i18n';

// What the page says after the tap comes with this chunk (only the offer is on the page before).
addTranslations({
  pt: {
    push: {
      on: 'Este celular será avisado quando chegar a sua vez.',
      denied: 'As notificações estão bloqueadas neste navegador.',
      failed: 'Não foi possível ativar os avisos neste celular.',
    },
  },
  en: {
    push: {
      on: 'This phone will be notified when it is your turn.',
      denied: 'Notifications are blocked in this browser.',
      failed: 'Notifications could not be turned on for this phone.',
    },
  },
});

/** base64url (the server's VAPID key) to the bytes PushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/**
 * Notify this phone (docs/product.md §8): asks for the permission, registers the service worker,
 * subscribes with the server's VAPID key and hands the subscription to the server for this entry.
 * Loaded on the diner's tap only: none of it is on the page before (its JS budget is 120 KB).
 */
export async function subscribeThisPhone(waitlistId: string, venueId: string): Promise<'on' | 'denied'> {
  if ((await Notification.requestPermission()) !== 'granted') return 'denied';
  const registration = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const { publicKey } = await apiGet<PushKeyResponse>('/push/key');
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) as BufferSource }));
  await apiRequest(`/waitlists/${encodeURIComponent(waitlistId)}/${encodeURIComponent(venueId)}/push`, {
    method: 'POST',
    body: { subscription: subscription.toJSON() },
  });
  return 'on';
}
