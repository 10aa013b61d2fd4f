import type { ThemeResponse } from '@vez/contract';
import type { CSSProperties } from 'react';
import { getRuntimeConfig } from '../../../lib/runtime-config';
import { imageSrc } from '../lib/format';
import { useHostT } from '../lib/host-i18n';

/** A small copy of the diner's join page in the draft colours: the preview moves as colours change. */
export function BrandPreview({ name, theme }: { name: string; theme: ThemeResponse }) {
  const { t } = useHostT();
  const logo = imageSrc(getRuntimeConfig().imageBaseUrl, theme.logo.horizontal || theme.logo.vertical);
  const style = {
    '--p-main': theme.color.main,
    '--p-bg': theme.color.background,
    '--p-accent': theme.color.accentBackground,
    '--p-border': theme.color.border,
  } as CSSProperties;
  return (
    <div className="host-preview" style={style} role="img" aria-label={t('settings.previewLabel')} data-testid="brand-preview">
      <div className="host-preview__header">{logo ? <img src={logo} alt="" /> : <span aria-hidden="true">{name}</span>}</div>
      <div className="host-preview__card">
        <div className="host-preview__line" />
        <div className="host-preview__line host-preview__line--short" />
      </div>
      <div className="host-preview__button" aria-hidden="true">
        {t('settings.previewButton')}
      </div>
    </div>
  );
}
