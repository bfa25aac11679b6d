/* SPDX-License-Identifier: MIT
 *
 * benchserver: a minimal Flickr-shaped HTTP/1.1 server for the throughput
 * workloads (bench/README.md). The Python sandbox verifies signatures and
 * keeps state, but its own CPU cost (a few hundred requests a second on a
 * shared core) would hide the clients' differences; this server answers in
 * microseconds, so the clients are what is measured. Every client of a
 * workload hits the same instance in one run.
 *
 *   benchserver [--port N] [--latency-ms MS]      prints "http://127.0.0.1:PORT" then serves
 *
 * - /services/rest/ (GET query or POST form): a flickr.test.echo answer that
 *   echoes every parameter as <name>value</name>, like Flickr's, after the
 *   configured latency (kept-alive connections wait in parallel, no thread each).
 * - /services/upload/, /services/replace/: the body is read and discarded at
 *   once (never stored), then <photoid secret=".." originalsecret="..">ID</photoid>.
 *   "Expect: 100-continue" is honoured.
 * - /services/rest/ with method=flickr.bench.body&shape=S&mb=N (not a Flickr method): an answer
 *   of N MiB (1-64) in one shape, for workload 6 (a body parsed as it streams in): "comment" (one
 *   comment, the hardening issue's case), "text" (one element's text), "elements" (photo elements
 *   with attributes, like a search page). No latency.
 * - /bench/stats: "connections=N requests=M\n" (TCP connections accepted, requests answered);
 *   /bench/reset zeroes both. These answer without latency.
 *
 * Signatures are not verified here: bench/run.py checks every client once
 * against the real sandbox (which does verify them) before timing it here.
 * Single-threaded epoll; Linux only.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "big_answers.h"

enum { ST_HEAD, ST_BODY, ST_WAIT, ST_WRITE };

typedef struct conn {
    int fd;
    int state;
    char *in;
    size_t inlen, incap;
    long long body_left; /* bytes of body still to read */
    int discard;          /* body is discarded (upload) rather than kept (form) */
    int keepalive;
    int kind;             /* 0 rest, 1 upload, 2 stats, 3 reset, 4 not found */
    char *query;          /* GET query (malloc'd) */
    char *out;
    size_t outlen, outoff;
    uint64_t ready_at;
    int waiting_index;    /* index in the waiting list, or -1 */
} conn;

static int epfd;
static long latency_ms;
static unsigned long long connections, requests;
static conn **waiting;
static size_t nwaiting, capwaiting;
static char scratch[1 << 20];

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n);
    if (!q) { perror("realloc"); exit(1); }
    return q;
}

static void set_events(conn *c, uint32_t events) {
    struct epoll_event ev = {.events = events, .data.ptr = c};
    epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static void unwait(conn *c) {
    if (c->waiting_index < 0) return;
    size_t i = (size_t)c->waiting_index;
    waiting[i] = waiting[--nwaiting];
    if (i < nwaiting) waiting[i]->waiting_index = (int)i;
    c->waiting_index = -1;
}

static void close_conn(conn *c) {
    unwait(c);
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c->in);
    free(c->query);
    free(c->out);
    free(c);
}

/* ---- building answers ---- */

typedef struct { char *p; size_t len, cap; } buf;

static void put(buf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}
static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

static int hexval(int ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Decodes a form component into out (NUL-terminated); returns its length. */
static size_t form_decode(const char *s, size_t n, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '+') out[o++] = ' ';
        else if (s[i] == '%' && i + 2 < n + 0 && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
            out[o++] = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
            i += 2;
        } else out[o++] = s[i];
    }
    out[o] = 0;
    return o;
}

static void put_escaped(buf *b, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&': puts_(b, "&amp;"); break;
        case '<': puts_(b, "&lt;"); break;
        case '>': puts_(b, "&gt;"); break;
        default: put(b, s + i, 1);
        }
    }
}

static int xml_name_ok(const char *s) {
    if (!*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
              *s == '.' || *s == '-'))
            return 0;
    return 1;
}

static void echo_body(buf *b, const char *form) {
    puts_(b, "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<rsp stat=\"ok\">\n");
    const char *p = form ? form : "";
    int oauth = 0;
    char sig[256] = "", token[256] = "";
    while (*p) {
        const char *amp = strchr(p, '&');
        size_t n = amp ? (size_t)(amp - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        size_t kn = eq ? (size_t)(eq - p) : n;
        char *k = malloc(kn + 1), *v = malloc(n + 1);
        form_decode(p, kn, k);
        size_t vn = eq ? form_decode(eq + 1, n - kn - 1, v) : (v[0] = 0, 0);
        if (xml_name_ok(k)) {
            puts_(b, "<"); puts_(b, k); puts_(b, ">");
            put_escaped(b, v, vn);
            puts_(b, "</"); puts_(b, k); puts_(b, ">\n");
        }
        if (!strcmp(k, "oauth_signature")) { oauth = 1; snprintf(sig, sizeof sig, "%s", v); }
        if (!strcmp(k, "oauth_token")) snprintf(token, sizeof token, "%s", v);
        free(k);
        free(v);
        p += n;
        if (*p == '&') p++;
    }
    if (oauth) {
        puts_(b, "<api_auth_is_oauth>1</api_auth_is_oauth>\n<api_sig>");
        put_escaped(b, sig, strlen(sig));
        puts_(b, "</api_sig>\n");
        if (*token) { puts_(b, "<auth_token>"); put_escaped(b, token, strlen(token)); puts_(b, "</auth_token>\n"); }
    }
    puts_(b, "</rsp>\n");
}

/* The value of `name` in a form (not decoded: the bench's values are plain), or NULL. */
static const char *form_value(const char *form, const char *name, char *out, size_t cap) {
    size_t n = strlen(name);
    for (const char *p = form; p && *p;) {
        if (!strncmp(p, name, n) && p[n] == '=') {
            const char *v = p + n + 1;
            size_t len = strcspn(v, "&");
            if (len >= cap) len = cap - 1;
            memcpy(out, v, len);
            out[len] = 0;
            return out;
        }
        p = strchr(p, '&');
        if (p) p++;
    }
    return NULL;
}

/* workload 6's answers: about mb MiB in one shape (big_answers.h); 0 if the shape is unknown. */
static int big_body(buf *b, const char *shape, long mb) {
    big_answer answer = {0};
    int known = big_answer_make(&answer, shape, (size_t)mb << 20);
    if (known) put(b, answer.data, answer.len);
    free(answer.data);
    return known;
}

static void respond(conn *c, const char *form) {
    buf body = {0}, head = {0};
    const char *type = "text/xml; charset=utf-8";
    int status = 200;
    switch (c->kind) {
    case 0: {
        char method[64], shape[32], mb[16];
        if (form_value(form, "method", method, sizeof method) && !strcmp(method, "flickr.bench.body")) {
            long n = form_value(form, "mb", mb, sizeof mb) ? atol(mb) : 0;
            if (n < 1 || n > 64 || !form_value(form, "shape", shape, sizeof shape) || !big_body(&body, shape, n)) {
                free(body.p);
                body = (buf){0};
                puts_(&body, "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<rsp stat=\"fail\">\n"
                             "<err code=\"100\" msg=\"bad shape or mb\" />\n</rsp>\n");
            }
        } else {
            echo_body(&body, form);
        }
        break;
    }
    case 1:
        puts_(&body, "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<rsp stat=\"ok\">\n"
                     "<photoid secret=\"a1b2c3d4e5\" originalsecret=\"f6a7b8c9d0\">52000000001</photoid>\n</rsp>\n");
        break;
    case 2: {
        char line[128];
        /* the connection asking is not counted */
        snprintf(line, sizeof line, "connections=%llu requests=%llu\n", connections ? connections - 1 : 0, requests);
        puts_(&body, line);
        type = "text/plain";
        break;
    }
    case 3: connections = 0; requests = 0; puts_(&body, "ok\n"); type = "text/plain"; break;
    default: status = 404; puts_(&body, "not found\n"); type = "text/plain"; break;
    }
    if (c->kind <= 1) requests++;
    char line[256];
    snprintf(line, sizeof line,
             "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: %s\r\n\r\n", status,
             status == 200 ? "OK" : "Not Found", type, body.len, c->keepalive ? "keep-alive" : "close");
    puts_(&head, line);
    put(&head, body.p ? body.p : "", body.len);
    free(body.p);
    free(c->out);
    c->out = head.p;
    c->outlen = head.len;
    c->outoff = 0;
}

/* ---- the connection state machine ---- */

static void start_write(conn *c);

static void body_done(conn *c) {
    char *form = NULL;
    if (c->kind == 0) form = c->query ? c->query : NULL;
    if (!c->discard && c->inlen > 0 && c->kind == 0) {
        /* POST form: the body is in c->in */
        form = c->in;
    }
    respond(c, form);
    c->inlen = 0;
    free(c->query);
    c->query = NULL;
    if (c->kind <= 1 && latency_ms > 0) {
        c->state = ST_WAIT;
        c->ready_at = now_ns() + (uint64_t)latency_ms * 1000000ull;
        if (nwaiting == capwaiting) {
            capwaiting = capwaiting ? capwaiting * 2 : 64;
            waiting = xrealloc(waiting, capwaiting * sizeof *waiting);
        }
        c->waiting_index = (int)nwaiting;
        waiting[nwaiting++] = c;
        set_events(c, 0);
    } else {
        start_write(c);
    }
}

static void start_write(conn *c) {
    c->state = ST_WRITE;
    while (c->outoff < c->outlen) {
        ssize_t n = send(c->fd, c->out + c->outoff, c->outlen - c->outoff, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN) { set_events(c, EPOLLOUT); return; }
            close_conn(c);
            return;
        }
        c->outoff += (size_t)n;
    }
    if (!c->keepalive) { close_conn(c); return; }
    c->state = ST_HEAD;
    set_events(c, EPOLLIN);
}

/* Parses a complete head in c->in[0..headlen). Returns 0, or -1 for a bad request. */
static int parse_head(conn *c, size_t headlen) {
    char *p = c->in;
    char *line_end = strstr(p, "\r\n");
    if (!line_end) return -1;
    *line_end = 0;
    char *sp1 = strchr(p, ' ');
    if (!sp1) return -1;
    char *target = sp1 + 1;
    char *sp2 = strchr(target, ' ');
    if (!sp2) return -1;
    *sp2 = 0;
    c->keepalive = strstr(sp2 + 1, "1.1") != NULL;
    char *q = strchr(target, '?');
    if (q) { *q = 0; c->query = strdup(q + 1); }
    if (!strncmp(target, "/services/rest", 14)) c->kind = 0;
    else if (!strncmp(target, "/services/upload", 16) || !strncmp(target, "/services/replace", 17)) c->kind = 1;
    else if (!strcmp(target, "/bench/stats")) c->kind = 2;
    else if (!strcmp(target, "/bench/reset")) c->kind = 3;
    else c->kind = 4;
    long long length = 0;
    int expect = 0, chunked = 0;
    for (char *h = line_end + 2; h < c->in + headlen;) {
        char *e = strstr(h, "\r\n");
        if (!e || e == h) break;
        *e = 0;
        if (!strncasecmp(h, "Content-Length:", 15)) length = atoll(h + 15);
        else if (!strncasecmp(h, "Expect:", 7) && strcasestr(h, "100-continue")) expect = 1;
        else if (!strncasecmp(h, "Connection:", 11)) {
            if (strcasestr(h, "close")) c->keepalive = 0;
            else if (strcasestr(h, "keep-alive")) c->keepalive = 1;
        } else if (!strncasecmp(h, "Transfer-Encoding:", 18) && strcasestr(h, "chunked")) chunked = 1;
        h = e + 2;
    }
    if (chunked) return -1; /* every client here sends a length */
    c->body_left = length;
    c->discard = c->kind != 0 || length > (1 << 20);
    if (expect) send(c->fd, "HTTP/1.1 100 Continue\r\n\r\n", 25, MSG_NOSIGNAL);
    return 0;
}

static void on_readable(conn *c) {
    for (;;) {
        if (c->state == ST_BODY && c->discard) {
            if (c->body_left <= 0) { body_done(c); return; }
            size_t want = c->body_left < (long long)sizeof scratch ? (size_t)c->body_left : sizeof scratch;
            ssize_t n = recv(c->fd, scratch, want, 0);
            if (n == 0) { close_conn(c); return; }
            if (n < 0) { if (errno == EAGAIN) return; close_conn(c); return; }
            c->body_left -= n;
            if (c->body_left <= 0) { body_done(c); return; }
            continue;
        }
        if (c->state != ST_HEAD && c->state != ST_BODY) return;
        if (c->incap - c->inlen < 65536) {
            c->incap = c->incap ? c->incap * 2 : 131072;
            c->in = xrealloc(c->in, c->incap);
        }
        ssize_t n = recv(c->fd, c->in + c->inlen, c->incap - c->inlen - 1, 0);
        if (n == 0) { close_conn(c); return; }
        if (n < 0) { if (errno == EAGAIN) return; close_conn(c); return; }
        c->inlen += (size_t)n;
        c->in[c->inlen] = 0;
        if (c->state == ST_HEAD) {
            char *end = strstr(c->in, "\r\n\r\n");
            if (!end) continue;
            size_t headlen = (size_t)(end - c->in) + 4;
            if (parse_head(c, headlen) < 0) { close_conn(c); return; }
            size_t extra = c->inlen - headlen;
            if (c->discard) {
                c->body_left -= (long long)extra;
                c->inlen = 0;
            } else {
                memmove(c->in, c->in + headlen, extra);
                c->inlen = extra;
                c->in[c->inlen] = 0;
            }
            c->state = ST_BODY;
        }
        if (c->state == ST_BODY && !c->discard) {
            if ((long long)c->inlen >= c->body_left) {
                c->in[c->body_left] = 0;
                c->inlen = (size_t)c->body_left;
                body_done(c);
                return;
            }
        } else if (c->state == ST_BODY && c->body_left <= 0) {
            body_done(c);
            return;
        }
    }
}

int main(int argc, char **argv) {
    int port = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--port") && i + 1 < argc) port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--latency-ms") && i + 1 < argc) latency_ms = atol(argv[++i]);
        else { fprintf(stderr, "usage: %s [--port N] [--latency-ms MS]\n", argv[0]); return 2; }
    }
    signal(SIGPIPE, SIG_IGN);
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 1024) < 0) { perror("bind"); return 1; }
    socklen_t alen = sizeof addr;
    getsockname(lfd, (struct sockaddr *)&addr, &alen);
    printf("http://127.0.0.1:%d\n", ntohs(addr.sin_port));
    fflush(stdout);

    epfd = epoll_create1(0);
    struct epoll_event lev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &lev);
    struct epoll_event events[256];
    for (;;) {
        int timeout = -1;
        if (nwaiting) {
            uint64_t now = now_ns(), soonest = UINT64_MAX;
            for (size_t i = 0; i < nwaiting; i++)
                if (waiting[i]->ready_at < soonest) soonest = waiting[i]->ready_at;
            timeout = soonest <= now ? 0 : (int)((soonest - now + 999999) / 1000000);
        }
        int n = epoll_wait(epfd, events, 256, timeout);
        for (int i = 0; i < n; i++) {
            conn *c = events[i].data.ptr;
            if (!c) {
                for (;;) {
                    int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK);
                    if (fd < 0) break;
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    conn *nc = calloc(1, sizeof *nc);
                    nc->fd = fd;
                    nc->waiting_index = -1;
                    nc->state = ST_HEAD;
                    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = nc};
                    epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
                    connections++;
                }
                continue;
            }
            if (events[i].events & EPOLLOUT && c->state == ST_WRITE) start_write(c);
            else if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
                if (c->state == ST_WAIT || c->state == ST_WRITE) {
                    /* a peer closing while we wait: drop it */
                    if (events[i].events & (EPOLLHUP | EPOLLERR)) close_conn(c);
                    continue;
                }
                on_readable(c);
            }
        }
        if (nwaiting) {
            uint64_t now = now_ns();
            for (size_t i = 0; i < nwaiting;) {
                conn *c = waiting[i];
                if (c->ready_at <= now) { unwait(c); start_write(c); }
                else i++;
            }
        }
    }
}
