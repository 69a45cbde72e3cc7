// A plain TCP relay for Benchmarks/relay.sh: what any proxy that copies bytes through user space can reach on
// this machine. relay LISTEN_PORT UPSTREAM_PORT [BUFFER_BYTES]: poll, then read and write a buffer; one
// connection at a time; nothing recorded.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv) {
  int lp = atoi(argv[1]), up = atoi(argv[2]); size_t bs = argc > 3 ? atoi(argv[3]) : 65536; char *buf = malloc(bs);
  int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1; setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(lp), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  bind(ls, (void *)&a, sizeof a); listen(ls, 16);
  for (;;) {
    int c = accept(ls, 0, 0); int u = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in b = {.sin_family = AF_INET, .sin_port = htons(up), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(u, (void *)&b, sizeof b) < 0) { close(c); continue; }
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); setsockopt(u, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct pollfd p[2] = {{c, POLLIN}, {u, POLLIN}}; int open = 1;
    while (open) {
      poll(p, 2, -1);
      for (int i = 0; i < 2; i++) if (p[i].revents & (POLLIN | POLLHUP)) {
        ssize_t n = read(p[i].fd, buf, bs); if (n <= 0) { open = 0; break; }
        for (ssize_t o = 0; o < n;) { ssize_t w = write(p[1 - i].fd, buf + o, n - o); if (w <= 0) { open = 0; break; } o += w; }
      }
    }
    close(c); close(u);
  }
}
