import type { Translation } from '../pt/translation';

/** American English. The contract's English messages are used verbatim. */
export const en: Translation = {
  common: {
    ok: 'OK',
    close: 'Close',
    back: 'Return',
    loading: 'Loading…',
    change: 'Change',
    poweredBy: 'Powered by',
    footer: 'Vez · remote waitlist',
    termsLink: 'Terms of service and waitlist',
  },
  language: {
    title: 'Choose your language',
    button: 'Language: {{name}}. Change language',
  },
  venue: {
    inaccessibleTitle: 'Remote queue is closed',
    inaccessible: 'Waitlist is currently inaccessible.',
    logoAlt: '{{venueName}} logo',
  },
  notFound: {
    title: 'Page not found',
    text: 'The address you opened does not exist or the restaurant is not available.',
    imageAlt: 'Error 404',
  },
  fallback: {
    title: 'Vez',
  },
  position: {
    loading: 'Loading your position…',
    title: 'Your place in the waitlist',
    positionLabel: 'Position',
    positionAria: 'You are number {{position}} in the waitlist',
    party_one: 'Party of {{count}} person',
    party_other: 'Party of {{count}} people',
    generalPosition: 'General position in the waitlist: {{position}}',
    orderPad: 'Order pad number: {{number}}',
    estimatedTime: 'Estimated wait: {{count}} min',
    estimatedRange: 'Estimated wait: {{low}}-{{high}} min',
    priority: 'Priority service',
    realTime: 'Updated in real time',
    notLive: 'No connection: your place is not being updated.',
    backLive: 'Back online: your place is up to date.',
    hidden:
      'This restaurant does not show positions in the waitlist. Keep an eye on your SMS messages: we will let you know when it is your turn.',
    turnComingTitle: 'Your turn is coming!',
    turnComing: 'Go near the establishment.',
    priorityNotice: 'At least half of the party must be present to enter.',
    terms: 'By staying on the waitlist, you accept the',
    menuPrompt: 'While you wait, take a look at the menu.',
    menuLink: 'See the menu',
    leave: 'Leave the waitlist',
    share: 'Share',
    shareTitle: 'My place in the waitlist at {{venueName}}',
    copied: 'Link copied!',
    shareFailed: 'We were unable to share your position on the waitlist. Please try again.',
    sharedView: 'You are viewing a shared position.',
    loadFailed: 'Failed to get waitlist information.',
  },
  push: {
    offer: 'Notify me on this phone',
  },
  conversation: {
    title: 'Talk to the venue',
    messages: 'Messages from the venue',
    onMyWay: 'On my way',
    arrived: "I'm here",
    moreTime: 'I need more time',
    minutes: '+{{count}} min',
  },
};
