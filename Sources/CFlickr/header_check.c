/* SPDX-License-Identifier: MIT */
/* Compiles the public header as C inside the library build, so a header that
 * does not compile on its own fails the build rather than a user's. */
#include "../../include/flickr.h"
