import { addTranslations } from '../../../lib/i18n';

/**
 * The waiting screen as a shared link's reader sees it (docs/product.md §3.2): someone who is not
 * in the queue, following a party's place. Loaded only for a shared link.
 */
addTranslations({
  pt: {
    shared: {
      position: {
        title: 'Posição de um grupo na fila',
        positionAria: 'O grupo está na posição {{position}} da fila',
        hidden: 'Este restaurante não mostra as posições da fila. Quem entrou na fila recebe um SMS quando chegar a vez.',
        turnComingTitle: 'A vez deste grupo está chegando!',
        turnComing: 'O grupo deve ir para perto do restaurante.',
        sharedView:
          'Alguém compartilhou com você a posição deste grupo. Você só acompanha: não está na fila e não pode sair dela por este link.',
      },
    },
  },
  en: {
    shared: {
      position: {
        title: "A party's place on the waitlist",
        positionAria: 'The party is at position {{position}} on the waitlist',
        hidden: 'This restaurant does not show waitlist positions. Whoever joined gets an SMS when it is their turn.',
        turnComingTitle: "This party's turn is coming!",
        turnComing: 'The party should go near the restaurant.',
        sharedView:
          "Someone shared this party's place with you. You only follow it: you are not on the waitlist and cannot leave it through this link.",
      },
    },
  },
});
