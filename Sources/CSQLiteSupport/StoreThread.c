// The thread that opens a store beside a command (Inspector's StoreOpening), started on another core than
// the caller's. Linux places a new thread on its parent's core when that core's recent load looks like the
// other's (a command started right after another, as scripts run them): there it waits for the parent to
// give up the core, up to a scheduler tick, so the opening meant to run while the arguments are parsed
// ran after them (measured: a tiny `ask` 1.1–1.6 ms slower; Docs/performance.md). Created on the other
// cores, the thread runs at once; once running it may run anywhere again.
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif
#ifdef __linux__
#include <sched.h>
#endif
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include "CSQLiteSupport.h"

struct store_thread {
    void (*body)(void *, int, int);
    void *context;
    int elsewhere_than;
#ifdef __linux__
    int restore;
    cpu_set_t allowed;
#endif
};

static void *store_thread_main(void *raw) {
    struct store_thread start = *(struct store_thread *)raw;
    free(raw);
    int started_on = -1;
#ifdef __linux__
    started_on = sched_getcpu();
    if (start.restore) sched_setaffinity(0, sizeof start.allowed, &start.allowed);
#endif
    start.body(start.context, start.elsewhere_than, started_on);
    return NULL;
}

int openresponses_start_store_thread(void (*body)(void *, int, int), void *context) {
    struct store_thread *start = calloc(1, sizeof *start);
    if (!start) return ENOMEM;
    start->body = body;
    start->context = context;
    start->elsewhere_than = -1;
    pthread_attr_t attributes;
    int status = pthread_attr_init(&attributes);
    if (status != 0) {
        free(start);
        return status;
    }
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
#ifdef __linux__
    int here = sched_getcpu();
    if (here >= 0 && sched_getaffinity(0, sizeof start->allowed, &start->allowed) == 0
        && CPU_ISSET(here, &start->allowed) && CPU_COUNT(&start->allowed) > 1) {
        cpu_set_t elsewhere = start->allowed;
        CPU_CLR(here, &elsewhere);
        start->restore = pthread_attr_setaffinity_np(&attributes, sizeof elsewhere, &elsewhere) == 0;
        if (start->restore) start->elsewhere_than = here;
    }
#endif
    pthread_t thread;
    status = pthread_create(&thread, &attributes, store_thread_main, start);
    pthread_attr_destroy(&attributes);
    if (status != 0) free(start);
    return status;
}
