import { parsePhone } from '@vez/contract';
import { AsYouType, type CountryCode, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dropdown } from '../../../components/ui/dropdown';
import { TextInput } from '../../../components/ui/text-input';
import { countryList, defaultCountryCode } from '../lib/countries';
import { nationalDigits } from '../lib/join-form-schema';
import './phone-input.css';

interface PhoneInputProps {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error?: string;
  name: string;
}

const MAX_NATIONAL_DIGITS = 15;

function format(country: CountryCode, digits: string): string {
  return digits ? new AsYouType(country).input(digits) : '';
}

/**
 * Phone input with country search (docs/product.md §12): Brazil and the United States first, Brazil by
 * default; the country code is shown, not editable; the number is formatted as typed. The value is
 * `+<code> <formatted national number>`; a whole number pasted or typed with its country code or
 * trunk prefix is read as the server reads it. This file (and libphonenumber's metadata) is loaded
 * only with the personal-data block of the join form.
 */
export function PhoneInput({ value, onChange, onBlur, error, name }: PhoneInputProps) {
  const { t, i18n } = useTranslation();
  const [country, setCountry] = useState<CountryCode>(defaultCountryCode);
  const countries = useMemo(() => countryList(i18n.language), [i18n.language]);
  const options = useMemo(
    () =>
      countries.map((c) => ({
        value: c.code,
        label: `${c.name} +${c.callingCode}`,
        keywords: c.code,
        adornment: <span aria-hidden="true">{c.flag}</span>,
      })),
    [countries],
  );
  const current = countries.find((c) => c.code === country);

  // A stored number (a logged-in diner's, `+5511987651234`) comes without the space after the
  // country code: find its country once and hold it in the form's `+<code> <national>` shape.
  useEffect(() => {
    if (!/^\+\d+$/.test(value)) return;
    const parsed = parsePhoneNumberFromString(value);
    if (!parsed?.country) return;
    setCountry(parsed.country);
    onChange(`+${parsed.countryCallingCode} ${format(parsed.country, parsed.nationalNumber)}`);
  }, [value, onChange]);
  const national = nationalDigits(value);
  const shown = format(country, national);

  const emit = (nextCountry: CountryCode, digits: string) => {
    const clipped = digits.slice(0, MAX_NATIONAL_DIGITS);
    onChange(clipped ? `+${getCountryCallingCode(nextCountry)} ${format(nextCountry, clipped)}` : '');
  };

  return (
    <TextInput
      label={t('join.phone')}
      name={name}
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      hint={t('join.phoneHint')}
      error={error}
      filled={national.length > 0}
      value={shown}
      onBlur={onBlur}
      onChange={(event) => {
        const typed = event.target.value;
        const digits = typed.replace(/\D/g, '');
        // Deleting a formatting character alone ('-', ')') deletes the digit before it.
        if (digits === national && typed.length < shown.length) return emit(country, digits.slice(0, -1));
        // A number as people paste it (docs/product.md §15): `+55 (11) 97777-6543`, `55 11 …`,
        // `011 …`: the contract reads its country and national number, as the server will.
        const read = parsePhone(typed, country);
        if (read?.country && read.nationalNumber !== digits) {
          setCountry(read.country);
          emit(read.country, read.nationalNumber);
          return;
        }
        emit(country, digits);
      }}
      className="phone-input"
      prefix={
        <Dropdown
          className="phone-input__country"
          label={t('join.countrySearch')}
          hideLabel
          buttonLabel={t('join.country', { country: current?.name ?? country })}
          placeholder=""
          options={options}
          value={country}
          renderValue={() => (
            <span className="phone-input__code">
              <span aria-hidden="true">{current?.flag}</span> +{current?.callingCode}
            </span>
          )}
          search={{ label: t('join.countrySearch'), empty: t('join.noCountry') }}
          onChange={(code) => {
            setCountry(code as CountryCode);
            emit(code as CountryCode, national);
          }}
        />
      }
    />
  );
}
