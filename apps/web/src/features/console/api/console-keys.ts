// Query keys of the console's own tabs; invalidating a prefix refreshes every page of it.
export const consoleKeys = {
  users: ['console', 'users'] as const,
  usersList: (params: Record<string, string | number>) => ['console', 'users', 'list', params] as const,
  user: (id: string) => ['console', 'users', 'one', id] as const,
  masterlist: ['console', 'masterlist'] as const,
  masterlistPage: (params: Record<string, string | number>) => ['console', 'masterlist', params] as const,
  dashboardStats: ['console', 'dashboard', 'stats'] as const,
  activities: ['console', 'dashboard', 'activities'] as const,
  verifications: ['console', 'verifications'] as const,
  pending: (params: Record<string, string | number>) => ['console', 'verifications', 'pending', params] as const,
  history: (page: number) => ['console', 'verifications', 'history', page] as const,
  verificationStats: ['console', 'verifications', 'stats'] as const,
};
