#ifndef OPENRESPONSES_CTERMINAL_H
#define OPENRESPONSES_CTERMINAL_H

/// Installs a SIGINT handler that only writes one byte to `fd` (the self-pipe trick).
/// Returns 0 on success, -1 on failure (errno set).
int or_install_sigint_pipe(int fd);
/// Restores the default SIGINT disposition.
void or_restore_sigint(void);

/// Saves the terminal attributes of `fd` (if it is a terminal) so they can be restored on any exit path.
void or_save_terminal(int fd);
/// Restores the attributes saved by or_save_terminal; harmless when nothing was saved.
void or_restore_terminal(void);

#endif
