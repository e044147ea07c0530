#pragma once
// The one exception type of the store layer: any failure to write (or read back) a saved file.
// The message names the path and the operation that failed ("create", "append frame 3", "rename").

#include <stdexcept>

namespace cineflow::store {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cineflow::store
