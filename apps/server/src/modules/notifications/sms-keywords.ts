/**
 * What an SMS reply means (docs/product.md §7). Keywords in Portuguese and English, whatever the
 * case, accents, spaces or a closing punctuation mark: "Sim!", " mais  tempo ", "Parar".
 */
export type SmsIntent = 'onMyWay' | 'needMoreTime' | 'leave' | 'stop' | 'message';

const KEYWORDS: Record<Exclude<SmsIntent, 'message'>, readonly string[]> = {
  onMyWay: ['1', 'SIM', 'OK', 'YES'],
  needMoreTime: ['2', 'MAIS TEMPO', 'MORE TIME'],
  leave: ['9', 'SAIR', 'CANCELAR', 'CANCEL'],
  stop: ['PARAR', 'STOP'],
};

export function normaliseKeyword(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[\s.!?,;:]+$/u, '')
    .replace(/^[\s.!?,;:]+/u, '')
    .replace(/\s+/g, ' ');
}

export function intentOf(text: string): SmsIntent {
  const word = normaliseKeyword(text);
  for (const [intent, words] of Object.entries(KEYWORDS) as [Exclude<SmsIntent, 'message'>, readonly string[]][]) {
    if (words.includes(word)) return intent;
  }
  return 'message';
}
