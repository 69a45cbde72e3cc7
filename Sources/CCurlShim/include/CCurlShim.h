// libcurl's functions, for Foundation's URL loading, resolved on first use (CurlShim.c). Nothing to call here.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H
int or_curl_shim_loaded(void);
#endif
