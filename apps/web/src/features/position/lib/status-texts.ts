import { addTranslations } from '../../../lib/i18n';

/**
 * The called, seated and ended screens' texts (docs/product.md §12.2, §14): loaded with those
 * screens, not with every waiting page (its JS budget is 120 KB). An ended page says why
 * (`ended_<cancel reason>`) and offers the venue's join link again; a shared link's reader is not
 * in the queue, so its texts (`shared.position.*`) speak of the party, not to it.
 */
addTranslations({
  pt: {
    position: {
      calledTitle: 'Chegou a sua vez!',
      called: 'Procure a recepcionista.',
      seatedTitle: 'Bom apetite!',
      seated: 'Seu grupo já foi acomodado.',
      noneTitle: 'Você não está mais na fila.',
      none: 'Para voltar à fila, entre novamente pelo link do restaurante.',
      ended_Customer: 'Você saiu da fila.',
      ended_Host: 'A recepção encerrou a sua vez na fila.',
      ended_Removed: 'A recepção tirou o seu grupo da fila.',
      ended_NoShow: 'Sua vez foi chamada e o prazo para chegar à recepção terminou.',
      ended_Expired: 'Sua entrada na fila expirou depois de um dia.',
      joinAgain: 'Entrar na fila de novo',
    },
    shared: {
      position: {
        calledTitle: 'Chegou a vez deste grupo!',
        called: 'O restaurante chamou o grupo para a mesa.',
        seatedTitle: 'Grupo acomodado',
        seated: 'Este grupo já foi acomodado.',
        noneTitle: 'Este grupo não está mais na fila.',
        none: 'Para entrar na fila, use o link do restaurante.',
        joinAgain: 'Entrar na fila deste restaurante',
      },
    },
  },
  en: {
    position: {
      calledTitle: 'It is your turn!',
      called: 'Look for the receptionist.',
      seatedTitle: 'Enjoy your meal!',
      seated: 'Your party has been seated.',
      noneTitle: 'You are no longer on the waitlist.',
      none: 'To join again, open the restaurant’s waitlist link.',
      ended_Customer: 'You left the waitlist.',
      ended_Host: 'The host ended your turn on the waitlist.',
      ended_Removed: 'The host took your party off the waitlist.',
      ended_NoShow: 'Your turn was called and the time to come to the host ran out.',
      ended_Expired: 'Your place on the waitlist expired after a day.',
      joinAgain: 'Join the waitlist again',
    },
    shared: {
      position: {
        calledTitle: "It is this party's turn!",
        called: 'The restaurant called the party to its table.',
        seatedTitle: 'Party seated',
        seated: 'This party has been seated.',
        noneTitle: 'This party is no longer on the waitlist.',
        none: "To join the waitlist, use the restaurant's link.",
        joinAgain: "Join this restaurant's waitlist",
      },
    },
  },
});
