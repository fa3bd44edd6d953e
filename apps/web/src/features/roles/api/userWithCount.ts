import { rolesOps } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export const roleKeys = {
  /** everything of this feature: the cards, a role's screens, its users */
  all: ['roles'] as const,
  cards: ['roles', 'cards'] as const,
  screens: (role: string) => ['roles', 'screens', role] as const,
  users: (role: string, page: number) => ['roles', 'users', role, page] as const,
};

/** Every role with the number of users holding it. */
export const userWithCount = () => call(rolesOps.userWithCount);

export const roleCardsQuery = () => queryOptions({ queryKey: roleKeys.cards, queryFn: userWithCount });
