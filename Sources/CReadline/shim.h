#ifndef OPENRESPONSES_CREADLINE_SHIM_H
#define OPENRESPONSES_CREADLINE_SHIM_H

#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// Swift 6 refuses to touch readline's mutable globals directly (they are not concurrency-safe),
// so every global the console needs is read or written through one of these accessors.

static inline void or_rl_set_readline_name(const char *name) { rl_readline_name = name; }
static inline void or_rl_set_catch_signals(int on) { rl_catch_signals = on; rl_catch_sigwinch = on; }
static inline void or_rl_set_instream(FILE *f) { rl_instream = f; }
static inline void or_rl_set_outstream(FILE *f) { rl_outstream = f; }
static inline FILE *or_stdin(void) { return stdin; }
static inline FILE *or_stdout(void) { return stdout; }
static inline FILE *or_stderr(void) { return stderr; }

/// Drops the line being edited and shows a fresh prompt (used after Ctrl-C at the prompt).
static inline void or_rl_discard_line(void) {
    rl_replace_line("", 0);
    rl_point = 0;
    rl_end = 0;
    rl_crlf();
    rl_on_new_line();
    rl_redisplay();
}

static inline int or_rl_history_length(void) { return history_length; }
static inline void or_rl_set_attempted_completion(rl_completion_func_t *f) { rl_attempted_completion_function = f; }
static inline void or_rl_set_completion_append_character(int c) { rl_completion_append_character = c; }
static inline void or_rl_set_attempted_completion_over(int v) { rl_attempted_completion_over = v; }
static inline const char *or_rl_line_buffer(void) { return rl_line_buffer; }
static inline int or_rl_line_length(void) { return rl_end; }

#endif
