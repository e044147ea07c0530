#pragma once
// libOpenIGTLink's message headers, included with the warnings they raise under the project's
// flags silenced (the link room's only way to include them).

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wnon-virtual-dtor"
#include <igtlImageMessage.h>
#include <igtlMessageHeader.h>
#include <igtlStatusMessage.h>
#pragma GCC diagnostic pop
