import type { CreateUserWithOtpBody, Language, OtpChannel } from '@vez/contract';

/** What step 0 collected, as the code step receives it. `phone` is digits with a leading plus. */
export interface VerificationContact {
  name: string;
  phone: string;
  email: string;
}

/** docs/product.md §15: a name without a surname cannot become a first and a last name. */
export class FullNameRequiredError extends Error {
  constructor() {
    super('Por favor, informe seu nome completo.');
    this.name = 'FullNameRequiredError';
  }
}

/**
 * docs/product.md §15: the full name is split at spaces; the last word is the last name, the rest the
 * first name. A single word throws FullNameRequiredError.
 */
export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const lastName = words.pop();
  if (!lastName || words.length === 0) throw new FullNameRequiredError();
  return { firstName: words.join(' '), lastName };
}

/** The user creation payload of docs/product.md §13 (productName is added by the API call). */
export function buildUserPayload(
  contact: VerificationContact,
  code: { otp: string; channel: OtpChannel },
  venueId: string,
  lang: Language,
): Omit<CreateUserWithOtpBody, 'productName'> {
  const email = contact.email.trim();
  return {
    ...splitFullName(contact.name),
    phone: `+${contact.phone.replace(/\D/g, '')}`,
    ...(email ? { email } : {}),
    otp: code.otp,
    channel: code.channel,
    venueId,
    lang,
  };
}
