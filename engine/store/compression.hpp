#pragma once
// How a saved volume's voxels are compressed (store/volume_writer.hpp). gzip is built into HDF5;
// LZ4 and Blosc (bitshuffle + LZ4) come from the HDF5 filter plugins (Debian/Ubuntu:
// hdf5-filter-plugin, hdf5-filter-plugin-blosc-serial), which HDF5 loads from its plugin path
// (HDF5_PLUGIN_PATH, or the distribution's default) when they are installed. Readers need the same
// plugins: h5py through the hdf5plugin package, HDFView and MATLAB through HDF5_PLUGIN_PATH.

#include <string>
#include <vector>

namespace cineflow::store {

enum class Codec {
  None,
  Gzip,           // deflate after byte shuffle (HDF5 built-in filters)
  Lz4,            // HDF5 filter 32004 (plugin)
  BitshuffleLz4,  // HDF5 filter 32001, Blosc with bit shuffle and its LZ4 compressor (plugin)
};

struct Compression {
  Codec codec = Codec::None;
  int level = 4;  // gzip 1..9, Blosc 1..9; LZ4 has none

  bool operator==(const Compression&) const = default;
};

// Every codec, in the order a menu lists them.
const std::vector<Codec>& allCodecs();
// "none", "gzip", "lz4", "bitshuffle-lz4": what parseCompression() takes, and the file attribute's
// first word.
const char* codecName(Codec codec);
// A label for menus: "None", "gzip (level 4)", "LZ4", "Bitshuffle + LZ4".
std::string describe(const Compression& compression);
// The file attribute: "none", "gzip-4+shuffle", "lz4 (hdf5 filter 32004)",
// "bitshuffle-lz4 (hdf5 filter 32001, blosc level 4)".
std::string attributeText(const Compression& compression);
// "none", "gzip", "gzip-6", "lz4", "bitshuffle-lz4", "bitshuffle-lz4-6". Throws
// std::invalid_argument naming the choices.
Compression parseCompression(const std::string& text);

// Whether this process can write (and read) `codec`: true for None and Gzip (when HDF5 has
// deflate); for the plugins true once HDF5 has found and loaded them. Otherwise false with `why`
// naming the package to install.
bool codecAvailable(Codec codec, std::string* why = nullptr);

// Empty, or why `compression` cannot be written here (the codec is unavailable, the level is
// outside 1..9).
std::string compressionProblem(const Compression& compression);

}  // namespace cineflow::store
