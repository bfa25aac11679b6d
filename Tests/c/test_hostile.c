/* SPDX-License-Identifier: MIT */
/* Hostile input: XML with DTDs, external entities (never fetched, never read from
 * disk), entity expansion bombs and deep nesting are refused; TLS verification is on
 * by default (the sandbox's own certificate is refused without FLICKR_OPT_CA_FILE and
 * accepted with it); no message or log line holds the shared secret or a token secret.
 *
 * Runs through with_sandbox.py --tls (the sandbox serves https with its own CA). */
#include <flickr.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <time.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fds.h"
#include "harness.h"
#include "loopback.h"
#include "sandbox_env.h"

static int parse(const char *xml, size_t len) {
    flickr_response *resp = (flickr_response *)0x1;
    int rc = flickr_response_parse(&resp, xml, len);
    if (rc != FLICKR_OK) CHECK(resp == NULL);
    flickr_response_free(rc == FLICKR_OK ? resp : NULL);
    return rc;
}

static int parse_str(const char *xml) { return parse(xml, strlen(xml)); }

static int message_has(const char *needle) { return strstr(flickr_error_last()->message, needle) != NULL; }

/* A loopback TCP listener that must never see a connection. */
static int listener(int *port) {
    int fd = loopback_listener(port);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

static void test_dtds_and_external_entities(void) {
    char path[] = "/tmp/flickr-hostile-XXXXXX";
    char xml[1024];
    char event_buffer[4096];
    int file = mkstemp(path), port, net = listener(&port), watch = inotify_init1(IN_NONBLOCK), client;
    const char *marker = "FILE-CONTENT-MUST-NOT-LEAK";
    size_t i;

    CHECK(file >= 0 && watch >= 0);
    CHECK(write(file, marker, strlen(marker)) == (ssize_t)strlen(marker));
    close(file);
    CHECK(inotify_add_watch(watch, path, IN_OPEN | IN_ACCESS) >= 0);

    {
        const char *templates[] = {
            /* An external general entity from disk, then over the network. */
            "<?xml version=\"1.0\"?><!DOCTYPE rsp [<!ENTITY x SYSTEM \"file://%s\">]><rsp stat=\"ok\">&x;</rsp>",
            "<?xml version=\"1.0\"?><!DOCTYPE rsp [<!ENTITY x SYSTEM \"http://127.0.0.1:%d/x\">]><rsp>&x;</rsp>",
            /* An external DTD, a parameter entity, an entity in an attribute. */
            "<!DOCTYPE rsp SYSTEM \"file://%s\"><rsp stat=\"ok\"/>",
            "<!DOCTYPE rsp SYSTEM \"http://127.0.0.1:%d/ext.dtd\"><rsp stat=\"ok\"/>",
            "<!DOCTYPE rsp [<!ENTITY %% p SYSTEM \"file://%s\"> %%p;]><rsp/>", /* %% is a literal % */
            "<!DOCTYPE rsp [<!ENTITY %% p SYSTEM \"http://127.0.0.1:%d/p\"> %%p;]><rsp/>",
            "<!DOCTYPE rsp PUBLIC \"-//x//y\" \"file://%s\"><rsp a=\"&x;\"/>",
            "<!DOCTYPE rsp [<!ENTITY x SYSTEM \"file://%s\">]><rsp a=\"&x;\"/>",
        };
        for (i = 0; i < sizeof templates / sizeof templates[0]; i++) {
            if (strstr(templates[i], ":%d/"))
                snprintf(xml, sizeof xml, templates[i], port);
            else
                snprintf(xml, sizeof xml, templates[i], path);
            CHECK_EQ_INT(parse_str(xml), FLICKR_EPARSE);
            CHECK(strstr(flickr_error_last()->message, marker) == NULL);
        }
    }
    /* A plain DTD without entities is refused too, and an undeclared entity is an error. */
    CHECK_EQ_INT(parse_str("<!DOCTYPE rsp><rsp stat=\"ok\"/>"), FLICKR_EPARSE);
    CHECK(message_has("DTD"));
    CHECK_EQ_INT(parse_str("<!DOCTYPE rsp [<!ELEMENT rsp ANY>]><rsp stat=\"ok\"/>"), FLICKR_EPARSE);
    CHECK_EQ_INT(parse_str("<rsp stat=\"ok\">&x;</rsp>"), FLICKR_EPARSE);
    /* The predefined entities and character references still work. */
    CHECK_EQ_INT(parse_str("<rsp a=\"&lt;&amp;&#x41;&#66;\">&gt;&quot;&apos;</rsp>"), FLICKR_OK);

    /* Nothing read the file, nothing connected to the listener. */
    CHECK(read(watch, event_buffer, sizeof event_buffer) < 0 && errno == EAGAIN);
    client = accept(net, NULL, NULL);
    CHECK(client < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
    if (client >= 0) close(client);
    close(watch);
    close(net);
    unlink(path);
}

static void test_entity_bombs(void) {
    /* Billion laughs: 10^9 "lol"s from a 1 KB document. */
    static const char laughs[] =
        "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">"
        "<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">"
        "<!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">"
        "<!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">"
        "<!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">"
        "<!ENTITY lol5 \"&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;\">"
        "<!ENTITY lol6 \"&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;\">"
        "<!ENTITY lol7 \"&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;\">"
        "<!ENTITY lol8 \"&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;\">"
        "<!ENTITY lol9 \"&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;\">"
        "]><rsp stat=\"ok\" a=\"&lol9;\">&lol9;</rsp>";
    /* Quadratic blowup: one 64 KB entity referenced 64 K times. */
    size_t big = 64 * 1024, refs = 64 * 1024, i;
    char *quadratic = malloc(big + refs * 3 + 256), *p = quadratic;
    p += sprintf(p, "<!DOCTYPE rsp [<!ENTITY a \"");
    memset(p, 'a', big);
    p += big;
    p += sprintf(p, "\">]><rsp>");
    for (i = 0; i < refs; i++) p += sprintf(p, "&a;");
    p += sprintf(p, "</rsp>");

    CHECK_EQ_INT(parse_str(laughs), FLICKR_EPARSE);
    CHECK(message_has("DTD"));
    CHECK_EQ_INT(parse(quadratic, (size_t)(p - quadratic)), FLICKR_EPARSE);
    CHECK(message_has("DTD"));
    /* The same bomb after a valid-looking start, and with parameter entities. */
    CHECK_EQ_INT(parse_str("<!DOCTYPE r [<!ENTITY % a \"<!ENTITY b '&#37;a;'>\"> %a;]><r/>"), FLICKR_EPARSE);
    free(quadratic);
}

static char *nested(size_t depth) {
    char *xml = malloc(depth * 7 + 16), *p = xml;
    size_t i;
    for (i = 0; i < depth; i++) p += sprintf(p, "<a>");
    for (i = 0; i < depth; i++) p += sprintf(p, "</a>");
    *p = '\0';
    return xml;
}

static void test_nesting(void) {
    char *ok = nested(256), *deep = nested(257), *very = nested(1000000);
    CHECK_EQ_INT(parse_str(ok), FLICKR_OK);
    CHECK_EQ_INT(parse_str(deep), FLICKR_EPARSE);
    CHECK(message_has("deeper than 256"));
    CHECK_EQ_INT(parse_str(very), FLICKR_EPARSE); /* bounded: no stack overflow, no huge allocation */
    /* Unclosed: a million opening tags. */
    very[strlen(very) / 2] = '\0';
    CHECK_EQ_INT(parse_str(very), FLICKR_EPARSE);
    free(ok);
    free(deep);
    free(very);
    {   /* Wide is fine: 200000 siblings with long attribute values and many attributes. */
        size_t n = 200000, i;
        char *wide = malloc(n * 24 + 64), *p = wide;
        p += sprintf(p, "<rsp stat=\"ok\"><photos>");
        for (i = 0; i < n; i++) p += sprintf(p, "<photo id=\"%u\"/>", (unsigned)(i % 100000));
        p += sprintf(p, "</photos></rsp>");
        CHECK_EQ_INT(parse(wide, (size_t)(p - wide)), FLICKR_OK);
        free(wide);
    }
}

/* ---- TLS ---- */

static flickr_context *https_context(int with_ca) {
    flickr_context *ctx = NULL;
    char url[512];
    CHECK_EQ_INT(flickr_context_new(&ctx, sandbox_env("FLICKR_SANDBOX_API_KEY"), sandbox_env("FLICKR_SANDBOX_API_SECRET")),
                 FLICKR_OK);
    sandbox_url(url, sizeof url, "/services/rest/");
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_REST_ENDPOINT, url), FLICKR_OK);
    flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0);
    if (with_ca) CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_CA_FILE, sandbox_env("FLICKR_SANDBOX_CA_FILE")), FLICKR_OK);
    return ctx;
}

static void test_tls(void) {
    flickr_response *resp = NULL;
    flickr_context *ctx;
    char *ca = NULL;

    CHECK(strncmp(sandbox_env("FLICKR_SANDBOX_URL"), "https://", 8) == 0);
    /* Verification is on by default: the sandbox's self-made CA is not trusted. */
    ctx = https_context(0);
    CHECK_EQ_INT(flickr_context_get_string(&ca, ctx, FLICKR_OPT_CA_FILE), FLICKR_OK);
    CHECK(ca == NULL);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_ETLS);
    CHECK(resp == NULL);
    /* ... and the context works once told to trust it. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_CA_FILE, sandbox_env("FLICKR_SANDBOX_CA_FILE")), FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_OK);
    flickr_response_free(resp);
    flickr_context_free(ctx);

    ctx = https_context(1);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_OK);
    flickr_response_free(resp);
    /* Another CA (the system's) does not make it trusted either. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_CA_FILE, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_ETLS);
    flickr_context_free(ctx);

    {   /* The wrong host name for the certificate (it names 127.0.0.1 and localhost) is refused. */
        const char *url = sandbox_env("FLICKR_SANDBOX_URL"), *colon = strrchr(url, ':');
        char other[256];
        snprintf(other, sizeof other, "https://127.0.0.2%s/services/rest/", colon);
        ctx = https_context(1);
        CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_REST_ENDPOINT, other), FLICKR_OK);
        {
            int rc = flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET);
            /* ETLS when 127.0.0.2 reaches the sandbox (Linux routes all of 127/8 to lo), else ENETWORK. */
            CHECK(rc == FLICKR_ETLS || rc == FLICKR_ENETWORK);
            if (rc == FLICKR_OK) flickr_response_free(resp);
        }
        flickr_context_free(ctx);
    }
}

/* ---- secrets ---- */

static char log_text[1 << 16];
static size_t log_used;
static int log_lines;

static void collect_line(const char *line, void *userdata) {
    size_t n = strlen(line);
    (void)userdata;
    log_lines++;
    if (log_used + n + 2 < sizeof log_text) {
        memcpy(log_text + log_used, line, n);
        log_used += n;
        log_text[log_used++] = '\n';
        log_text[log_used] = '\0';
    }
}

static int messages, leaks;

/* Checks one message for the secrets of this run (the sandbox's) and for `extra`. */
static void no_secret(const char *message, const char *extra) {
    const char *secrets[] = {sandbox_env("FLICKR_SANDBOX_API_SECRET"), sandbox_env("FLICKR_SANDBOX_OAUTH_TOKEN_SECRET"),
                             "9c8b7a6f5e4d3c2b", "0a1b2c3d4e5f6a7b", extra};
    size_t i;
    messages++;
    for (i = 0; i < sizeof secrets / sizeof secrets[0]; i++) {
        if (secrets[i] && *secrets[i] && strstr(message, secrets[i])) {
            leaks++;
            fprintf(stderr, "secret \"%s\" in message: %s\n", secrets[i], message);
        }
    }
}

static void test_secrets(void) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH); /* trusts FLICKR_SANDBOX_CA_FILE */
    flickr_response *resp = NULL;
    const char *fault[] = {"sandbox_fault", NULL, NULL};
    static const char *const faults[] = {"http500", "http429=1", "malformed", "empty", "truncate", "drop", "reset", "huge=200000"};
    const char *wrong_secret = "ffffeeeeddddcccc";
    size_t i;

    CHECK_EQ_INT(flickr_context_set_log(ctx, collect_line, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RESPONSE_BYTES, 100000), FLICKR_OK);
    /* Every failure class of a signed call, with the secrets in the context. */
    for (i = 0; i < sizeof faults / sizeof faults[0]; i++) {
        fault[1] = faults[i];
        CHECK(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET) != FLICKR_OK);
        no_secret(flickr_error_last()->message, NULL);
        CHECK(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_POST) != FLICKR_OK);
        no_secret(flickr_error_last()->message, NULL);
    }
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.no.such.method", NULL, FLICKR_GET), FLICKR_EAPI);
    no_secret(flickr_error_last()->message, NULL);
    /* A wrong token secret: the OAuth refusal quotes the server (with the base string), never a secret. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, wrong_secret), FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.login", NULL, FLICKR_GET), FLICKR_EOAUTH);
    no_secret(flickr_error_last()->message, wrong_secret);
    CHECK_EQ_INT(flickr_oauth_check_token(&resp, ctx, sandbox_env("FLICKR_SANDBOX_OAUTH_TOKEN"), wrong_secret), FLICKR_EOAUTH);
    no_secret(flickr_error_last()->message, wrong_secret);
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, "nosuchtoken", wrong_secret, "verifier"), FLICKR_EOAUTH);
    no_secret(flickr_error_last()->message, wrong_secret);
    /* Refused option values are not echoed into messages either. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, "0a1b2c3d4e5f6a7b\n"), FLICKR_EINVAL);
    no_secret(flickr_error_last()->message, NULL);
    CHECK(flickr_oauth_signature("G T", "http://x/", NULL, "9c8b7a6f5e4d3c2b", "0a1b2c3d4e5f6a7b", NULL) == NULL);
    no_secret(flickr_error_last()->message, NULL);
    {   /* A secret as a parameter value (say a mistake in the application) is not quoted in a refusal. */
        const char *params[] = {"oauth_token", "0a1b2c3d4e5f6a7b", NULL};
        CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_GET), FLICKR_EINVAL);
        no_secret(flickr_error_last()->message, NULL);
    }
    /* TLS failure. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_CA_FILE, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_ETLS);
    no_secret(flickr_error_last()->message, wrong_secret);
    flickr_context_free(ctx);

    /* Every log line. */
    CHECK(log_lines >= 10);
    no_secret(log_text, wrong_secret);
    printf("secrets: %d messages and %d log lines checked, %d with a secret\n", messages, log_lines, leaks);
    CHECK_EQ_INT(leaks, 0);
}

int main(void) {
    int fds = open_fds(), i;
    struct timespec pause = {0, 10 * 1000 * 1000};
    test_dtds_and_external_entities();
    test_entity_bombs();
    test_nesting();
    test_tls();
    test_secrets();
    /* flickr_context_free() leaves the engine's teardown to its worker thread: wait for it (its
     * sockets closing) so that the process does not exit while a worker still holds TLS state,
     * which LeakSanitizer and valgrind would report as lost. */
    for (i = 0; i < 300 && open_fds() != fds; i++) nanosleep(&pause, NULL);
    TEST_MAIN_END();
}
