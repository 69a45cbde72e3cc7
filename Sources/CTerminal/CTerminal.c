#ifdef __linux__
#define _GNU_SOURCE
#endif
#include "CTerminal.h"

#include <fcntl.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t or_sigint_fd = -1;
static struct sigaction or_previous_sigint;
static int or_previous_saved = 0;

static void or_sigint_handler(int signo) {
    (void)signo;
    int saved_errno = errno;
    if (or_sigint_fd >= 0) {
        char byte = 'i';
        ssize_t ignored = write(or_sigint_fd, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

int or_install_sigint_pipe(int fd) {
    or_sigint_fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = or_sigint_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &action, or_previous_saved ? NULL : &or_previous_sigint) != 0) {
        return -1;
    }
    or_previous_saved = 1;
    // A parent may have left SIGINT blocked (a thread pool's mask survives exec): unblock it here, on the
    // thread that installs the handler, so Ctrl-C is always delivered.
    sigset_t interrupt;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &interrupt, NULL);
    return 0;
}

void or_restore_sigint(void) {
    if (or_previous_saved) {
        sigaction(SIGINT, &or_previous_sigint, NULL);
        or_previous_saved = 0;
    } else {
        signal(SIGINT, SIG_DFL);
    }
    or_sigint_fd = -1;
}

static struct termios or_saved_termios;
static int or_saved_termios_fd = -1;

void or_save_terminal(int fd) {
    if (isatty(fd) && tcgetattr(fd, &or_saved_termios) == 0) {
        or_saved_termios_fd = fd;
    }
}

void or_restore_terminal(void) {
    if (or_saved_termios_fd >= 0) {
        tcsetattr(or_saved_termios_fd, TCSANOW, &or_saved_termios);
    }
}

#include <spawn.h>

int or_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, int err_fd,
             int new_group) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    if (in_fd >= 0) posix_spawn_file_actions_adddup2(&actions, in_fd, 0);
    if (out_fd >= 0) posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
    if (err_fd >= 0) posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
    // Nothing but stdin, stdout and stderr reaches the child: a descriptor some library opened without
    // close-on-exec (an epoll instance, a pipe made with pipe(2)) would otherwise be the child's too, and a
    // program nobody here wrote (an MCP server) could write into this process's own pipes.
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    posix_spawnattr_init(&attributes);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#if defined(__APPLE__)
    // Every descriptor not named in the actions is closed; the inherited standard ones are named.
    flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
    if (in_fd < 0) posix_spawn_file_actions_addinherit_np(&actions, 0);
    if (out_fd < 0) posix_spawn_file_actions_addinherit_np(&actions, 1);
    if (err_fd < 0) posix_spawn_file_actions_addinherit_np(&actions, 2);
#endif
    if (new_group) {
        posix_spawnattr_setpgroup(&attributes, 0);
        flags |= POSIX_SPAWN_SETPGROUP;
    }
    posix_spawnattr_setflags(&attributes, flags);
    int result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}

#include <sys/wait.h>

int or_has_ended(pid_t pid, int block) {
    siginfo_t info;
    for (;;) {
        info.si_pid = 0;
        int result = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT | (block ? 0 : WNOHANG));
        if (result == 0) return info.si_pid == pid ? 1 : 0;
        if (errno != EINTR) return -1;
    }
}

int or_pipe_cloexec(int fds[2]) {
#ifdef __linux__
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void or_keep_memory_flat(int mmap_threshold) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, mmap_threshold);
#else
    (void)mmap_threshold;
#endif
}
