/* SPDX-License-Identifier: MIT */
/**
 * @file flickr.h
 * @brief libflickr: a Flickr API client library. Include this one header.
 *
 * Link with `pkg-config --cflags --libs flickr`, or in CMake with
 * `find_package(Flickr)` and the target `Flickr::flickr`.
 * No global initialisation is required.
 */
#ifndef FLICKR_H
#define FLICKR_H

#include "flickr/version.h"
#include "flickr/common.h"
#include "flickr/context.h"
#include "flickr/response.h"
#include "flickr/client.h"
#include "flickr/methods.h"
#include "flickr/photos.h"
#include "flickr/upload.h"
#include "flickr/auth.h"

#endif /* FLICKR_H */
