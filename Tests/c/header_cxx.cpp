// SPDX-License-Identifier: MIT
// Built with -std=c++11 -Wall -Wextra -Werror -pedantic: the header must be clean C++,
// with extern "C" linkage so this links against the library.
#include <cstring>
#include <flickr.h>

int main() {
    flickr_context *ctx = nullptr;
    if (flickr_context_new(&ctx, "key", "secret") != FLICKR_OK) return 1;
    int rc = flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 1000);
    flickr_context_free(ctx);
    return rc == FLICKR_OK && std::strcmp(flickr_version(), FLICKR_VERSION) == 0 ? 0 : 1;
}
