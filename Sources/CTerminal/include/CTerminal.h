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

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` like posix_spawn, with stdin, stdout and stderr taken from
/// `in_fd`, `out_fd`, `err_fd` (-1 keeps the parent's), no signal blocked and every disposition at its
/// default (the calling thread may have SIGINT blocked; a child inheriting that would never see Ctrl-C),
/// and in a process group of its own when `new_group` is non-zero. Returns 0 or an errno value.
int or_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, int err_fd,
             int new_group);

/// Makes a pipe whose two ends are close-on-exec from the start (atomically where pipe2 exists), so a
/// process another thread starts meanwhile cannot inherit them. Returns 0, or -1 with errno set.
int or_pipe_cloexec(int fds[2]);

/// Whether child `pid` has ended (1), not yet (0), or cannot be waited for (-1, errno set), without reaping it
/// (waitid with WNOWAIT): its pid, and its group's id, stay its own until it is reaped. With `block`, waits
/// for its end.
int or_has_ended(pid_t pid, int block);

/// For a long-running server whose memory must stay flat (the recording proxy): one malloc arena for all
/// threads, and blocks of `mmap_threshold` bytes or more mapped on their own and returned when freed. Does
/// nothing where the C library has no mallopt (macOS).
void or_keep_memory_flat(int mmap_threshold);

#endif
