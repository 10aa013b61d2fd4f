import { createContext, useContext } from 'react';

/**
 * The console's tab title counts unread answers and messages, "(2) Painel da recepção · Bistrô"
 * (docs/product.md §7): the queue screen reports the count, the layout owns the title.
 */
export const TitleBadgeContext = createContext<(count: number) => void>(() => undefined);
export const useTitleBadge = () => useContext(TitleBadgeContext);
