/**
 * The keys of lists that one feature shows and another changes: the feature that changes one invalidates it
 * by its key here, without importing the feature that shows it.
 */
export const queryKeys = {
  /** the generated files (downloads): an export adds one */
  downloadFiles: ['download-files'] as const,
  /** the users list (users feature): deleting a user elsewhere changes it */
  users: ['users'] as const,
};
