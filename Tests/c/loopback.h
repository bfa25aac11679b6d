/* SPDX-License-Identifier: MIT */
/* A test's own TCP listener on 127.0.0.1 (an ephemeral port): the tests that need a peer that
 * never answers, or must never be reached, share it. */
#ifndef FLICKR_TEST_LOOPBACK_H
#define FLICKR_TEST_LOOPBACK_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* The listening socket; its port in *port. Exits the test when it cannot be made. */
static int loopback_listener(int *port) {
    struct sockaddr_in addr;
    socklen_t len = sizeof addr;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(fd, 8) != 0 ||
        getsockname(fd, (struct sockaddr *)&addr, &len) != 0) {
        perror("loopback listener");
        exit(2);
    }
    *port = ntohs(addr.sin_port);
    return fd;
}

#endif
