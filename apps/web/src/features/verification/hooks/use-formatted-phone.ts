import { useEffect, useState } from 'react';

/**
 * The phone formatted by its country (docs/product.md §15), for display. The phone metadata loads on
 * demand (the join page's entry does not carry it); until then the stored +digits show.
 */
export function useFormattedPhone(phone: string): string {
  const [formatted, setFormatted] = useState<{ phone: string; text: string }>();
  useEffect(() => {
    let live = true;
    import('libphonenumber-js/min')
      .then(({ parsePhoneNumberFromString }) => {
        const parsed = parsePhoneNumberFromString(phone);
        if (live && parsed) setFormatted({ phone, text: parsed.formatInternational() });
      })
      .catch(() => undefined); // the raw number is still right
    return () => {
      live = false;
    };
  }, [phone]);
  return formatted?.phone === phone ? formatted.text : phone;
}
