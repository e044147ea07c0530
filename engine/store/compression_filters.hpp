#pragma once
// The HDF5 side of store/compression.hpp: filters on a dataset being created or read.

#include <hdf5.h>

#include <string>

#include "store/compression.hpp"

namespace cineflow::store {

// Empty, or why `dataset` cannot be read here: it needs a filter that HDF5 does not have (a plugin
// that is not installed), named with the package to install.
std::string unreadableFilters(hid_t dataset);

// Adds the filters for `compression` to a chunked dataset creation property list. Throws
// StoreError with compressionProblem() when there is one.
void applyCompression(hid_t datasetCreation, const Compression& compression,
                      const std::string& dataset);

}  // namespace cineflow::store
