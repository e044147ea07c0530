#pragma once
// libOpenIGTLink's wire structures and byte-order helpers (its C layer: igtl_header, igtl_image),
// included with the warnings they raise under the project's flags silenced (the received room's
// only way to include them).

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#include <igtl_header.h>
#include <igtl_image.h>
#include <igtl_util.h>
#pragma GCC diagnostic pop
