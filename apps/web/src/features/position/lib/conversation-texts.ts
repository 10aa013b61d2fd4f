import { addTranslations } from '../../../lib/i18n';

/**
 * What the page says once the party has answered, or when an answer fails (docs/product.md §7):
 * loaded then, not with every position page (its JS budget is 120 KB).
 */
addTranslations({
  pt: {
    conversation: {
      known_onMyWay: 'O restaurante já sabe que você está a caminho.',
      known_arrived: 'O restaurante já sabe que você chegou.',
      known_needMoreTime: 'O restaurante já sabe que você precisa de mais {{count}} minutos.',
      gone: 'Você não está mais na fila.',
      failed: 'Não foi possível enviar sua resposta. Tente novamente.',
    },
  },
  en: {
    conversation: {
      known_onMyWay: 'The venue knows you are on your way.',
      known_arrived: 'The venue knows you are here.',
      known_needMoreTime: 'The venue knows you need {{count}} more minutes.',
      gone: 'You are no longer on the waitlist.',
      failed: 'Your answer could not be sent. Please try again.',
    },
  },
});
