/* SPDX-License-Identifier: MIT */
/* Built with -std=c99 -Wall -Wextra -Werror -pedantic: the header must be clean C99. */
#include <flickr.h>
#include <string.h>

int main(void) {
    const flickr_error *err = flickr_error_last();
    return strcmp(flickr_version(), FLICKR_VERSION) == 0 && err != NULL ? 0 : 1;
}
