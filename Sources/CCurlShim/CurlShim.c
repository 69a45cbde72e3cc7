// The libcurl functions Foundation's URL loading (FoundationNetworking, which the MCP SDK brings) calls, defined
// here and forwarded to libcurl opened with dlopen on the first call. Linked statically, FoundationNetworking
// made every command load libcurl and the 29 libraries it needs (TLS, HTTP/2, LDAP, Kerberos...): about 5 ms of
// each start (Docs/performance.md). With these definitions in the executable, the linker (--as-needed) leaves
// libcurl out, and it is loaded only by a process that really uses URLSession, which this console does not.
// Linux only: on macOS Foundation's networking is the system's.
#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>

static void *or_curl_library;
static pthread_once_t or_curl_once = PTHREAD_ONCE_INIT;

static void or_curl_open(void) {
    or_curl_library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!or_curl_library) or_curl_library = dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
}

static void *or_curl_symbol(const char *name) {
    pthread_once(&or_curl_once, or_curl_open);
    return or_curl_library ? dlsym(or_curl_library, name) : NULL;
}

int or_curl_shim_loaded(void) { return or_curl_library != NULL; }

// CURLE_FAILED_INIT and CURLM_INTERNAL_ERROR: what a call returns when libcurl cannot be opened.
#define OR_EASY_FAILED 2
#define OR_MULTI_FAILED 4

#define OR_FORWARD(ret, name, failed, params, args)                                                                   \
    ret name params {                                                                                                 \
        ret(*function) params = (ret(*) params)or_curl_symbol(#name);                                                 \
        if (!function) return failed;                                                                                 \
        return function args;                                                                                         \
    }

OR_FORWARD(void *, curl_easy_init, NULL, (void), ())
OR_FORWARD(int, curl_easy_pause, OR_EASY_FAILED, (void *handle, int mask), (handle, mask))
OR_FORWARD(const char *, curl_easy_strerror, "libcurl is not installed", (int code), (code))
OR_FORWARD(int, curl_global_init, OR_EASY_FAILED, (long flags), (flags))
OR_FORWARD(void *, curl_multi_init, NULL, (void), ())
OR_FORWARD(int, curl_multi_cleanup, OR_MULTI_FAILED, (void *multi), (multi))
OR_FORWARD(int, curl_multi_add_handle, OR_MULTI_FAILED, (void *multi, void *easy), (multi, easy))
OR_FORWARD(int, curl_multi_remove_handle, OR_MULTI_FAILED, (void *multi, void *easy), (multi, easy))
OR_FORWARD(int, curl_multi_assign, OR_MULTI_FAILED, (void *multi, int socket, void *pointer), (multi, socket, pointer))
OR_FORWARD(void *, curl_multi_info_read, NULL, (void *multi, int *left), (multi, left))
OR_FORWARD(int, curl_multi_socket_action, OR_MULTI_FAILED, (void *multi, int socket, int mask, int *running),
           (multi, socket, mask, running))
OR_FORWARD(void *, curl_slist_append, NULL, (void *list, const char *text), (list, text))
OR_FORWARD(void *, curl_url, NULL, (void), ())
OR_FORWARD(int, curl_url_get, OR_EASY_FAILED, (void *url, int part, char **value, unsigned flags),
           (url, part, value, flags))
OR_FORWARD(int, curl_url_set, OR_EASY_FAILED, (void *url, int part, const char *value, unsigned flags),
           (url, part, value, flags))
OR_FORWARD(char *, curl_version, "libcurl is not installed", (void), ())
OR_FORWARD(void *, curl_version_info, NULL, (int age), (age))

void curl_easy_cleanup(void *handle) {
    void (*function)(void *) = (void (*)(void *))or_curl_symbol("curl_easy_cleanup");
    if (function) function(handle);
}

void curl_free(void *pointer) {
    void (*function)(void *) = (void (*)(void *))or_curl_symbol("curl_free");
    if (function) function(pointer);
}

void curl_slist_free_all(void *list) {
    void (*function)(void *) = (void (*)(void *))or_curl_symbol("curl_slist_free_all");
    if (function) function(list);
}

// The variadic three take exactly one argument after the option: a long, a pointer or a curl_off_t, each one
// integer register wide on the 64-bit Linux ABIs (x86_64, aarch64), so it is passed on as a pointer-sized value.
#define OR_FORWARD_ONE(name, failed)                                                                                  \
    int name(void *handle, int option, ...) {                                                                         \
        int (*function)(void *, int, ...) = (int (*)(void *, int, ...))or_curl_symbol(#name);                        \
        if (!function) return failed;                                                                                 \
        va_list arguments;                                                                                            \
        va_start(arguments, option);                                                                                  \
        void *argument = va_arg(arguments, void *);                                                                   \
        va_end(arguments);                                                                                            \
        return function(handle, option, argument);                                                                    \
    }

OR_FORWARD_ONE(curl_easy_setopt, OR_EASY_FAILED)
OR_FORWARD_ONE(curl_easy_getinfo, OR_EASY_FAILED)
OR_FORWARD_ONE(curl_multi_setopt, OR_MULTI_FAILED)
#else
int or_curl_shim_loaded(void) { return 0; }
#endif
