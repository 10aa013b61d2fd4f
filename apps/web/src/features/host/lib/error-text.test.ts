import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { ApiError } from '../../../lib/api-client';
import { errorText } from './error-text';
import { HOST_NS, registerHostStrings } from './host-i18n';

const quota = new ApiError(409, {
  code: 'IMAGE_QUOTA_EXCEEDED',
  field: 'file',
  message: 'This venue has 20 images stored; the most is 20. Images the venue no longer shows make room an hour after their upload.',
});

/** docs/decisions/026: an upload past the venue's image quota says so in the console's language, with the limit. */
describe('the console’s sentence for a full image quota', () => {
  beforeEach(() => registerHostStrings());

  it('is Portuguese by default, never mixed with the server’s English', async () => {
    await initI18n().changeLanguage('pt');
    expect(errorText(i18next.getFixedT('pt', HOST_NS), quota)).toBe(
      'As imagens deste restaurante chegaram ao limite. As que ele não mostra mais liberam espaço uma hora depois do envio: tente de novo mais tarde.',
    );
  });

  it('and English in English', () => {
    expect(errorText(i18next.getFixedT('en', HOST_NS), quota)).toMatch(
      /^This venue's images have reached their limit\. Images the venue no longer shows make room an hour after their upload/,
    );
  });
});
