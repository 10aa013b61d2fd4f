import { DEMO_BISTRO_ID, DEMO_CLUB_ID } from '../src/seed/demo.js';

export { DEMO_BISTRO_ID, DEMO_CLUB_ID };

let phoneCounter = 0;
/** A fresh valid Brazilian mobile number per call. */
export function nextPhone(): string {
  phoneCounter += 1;
  return `+55 11 9${String(80000000 + phoneCounter * 7919 + Math.floor(Math.random() * 1000)).slice(-8)}`;
}

export function createBody(overrides: Record<string, unknown> = {}, venue = DEMO_BISTRO_ID) {
  const { customer, ...rest } = overrides as { customer?: Record<string, unknown> };
  return {
    customer: { name: 'Ana Souza', phone: nextPhone(), email: '', ...customer },
    venue,
    origin: { label: 'Widget' },
    partySize: 2,
    benefits: '',
    logs: { actionType: 'Add' },
    data: { origin: 'Waitlist widget' },
    sendSms: true,
    note: '',
    ...rest,
  };
}
