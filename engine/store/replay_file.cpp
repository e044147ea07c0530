#include "store/replay_file.hpp"

#include <system_error>
#include <vector>

#include "acquire/frame_source.hpp"

namespace cineflow::store {

H5File openForReplay(const std::filesystem::path& path, const std::string& kind,
                     const std::string& notHdf5Hint) {
  const auto fail = [&path](const std::string& problem) {
    throw acquire::SourceError(path.string() + ": " + problem);
  };
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    fail("file not found");
  }
  if (std::filesystem::is_directory(path, ec)) {
    fail("is a directory, not " + kind);
  }
  // 0: no signature; < 0: a signature, but HDF5 cannot read on (the open below says why).
  if (H5Fis_hdf5(path.c_str()) == 0) {
    fail("not an HDF5 file (no HDF5 signature found" +
         (notHdf5Hint.empty() ? std::string() : "; " + notHdf5Hint) + ")");
  }
  H5PropertyList access(checkId(H5Pcreate(H5P_FILE_ACCESS), "file access properties"));
  H5Pset_file_locking(access.get(), false, true);
  H5File file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get()));
  if (!file) {
    fail("cannot open as HDF5 (damaged or truncated?): " + errorStackText());
  }
  return file;
}

std::string rootSchema(const std::filesystem::path& path) noexcept {
  try {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      return {};
    }
    const ErrorScope quiet;
    if (H5Fis_hdf5(path.c_str()) <= 0) {
      return {};
    }
    H5PropertyList access(H5Pcreate(H5P_FILE_ACCESS));
    if (!access) {
      return {};
    }
    // Only reads; file locks fail on some read-only and network file systems.
    H5Pset_file_locking(access.get(), false, true);
    const H5File file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get()));
    if (!file || !attributeExists(file.get(), "schema")) {
      return {};
    }
    return readStringAttribute(file.get(), "schema");
  } catch (...) {  // not a string, unreadable, out of memory: the file says nothing usable
    return {};
  }
}

std::string readFrameSlab(hid_t dataset, hid_t fileSpace, std::uint64_t index,
                          std::span<const hsize_t> frameDims, hid_t memType, void* dst) {
  std::vector<hsize_t> start(frameDims.size() + 1, 0), count(frameDims.size() + 1, 1);
  start[0] = index;
  hsize_t values = 1;
  for (std::size_t d = 0; d < frameDims.size(); ++d) {
    count[d + 1] = frameDims[d];
    values *= frameDims[d];
  }
  if (H5Sselect_hyperslab(fileSpace, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr) <
      0) {
    return errorStackText();
  }
  const H5Dataspace memSpace(H5Screate_simple(1, &values, nullptr));
  if (!memSpace || H5Dread(dataset, memType, memSpace.get(), fileSpace, H5P_DEFAULT, dst) < 0) {
    const std::string reason = errorStackText();
    return reason.empty() ? "unknown HDF5 error" : reason;
  }
  return {};
}

}  // namespace cineflow::store
