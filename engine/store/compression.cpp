#include "store/compression_filters.hpp"

#include <stdexcept>

#include "store/hdf5_handle.hpp"
#include "store/store_error.hpp"

namespace cineflow::store {
namespace {

constexpr H5Z_filter_t kLz4Filter = 32004;
constexpr H5Z_filter_t kBloscFilter = 32001;
constexpr unsigned kBloscBitShuffle = 2;
constexpr unsigned kBloscLz4 = 1;

bool hasLevel(Codec codec) {
  return codec == Codec::Gzip || codec == Codec::BitshuffleLz4;
}

// What to install for a plugin filter HDF5 does not have.
std::string pluginHint(H5Z_filter_t filter) {
  switch (filter) {
    case kLz4Filter:
      return "the HDF5 LZ4 filter plugin is not installed (Debian/Ubuntu package "
             "hdf5-filter-plugin; or set HDF5_PLUGIN_PATH)";
    case kBloscFilter:
      return "the HDF5 Blosc filter plugin is not installed (Debian/Ubuntu package "
             "hdf5-filter-plugin-blosc-serial; or set HDF5_PLUGIN_PATH)";
    default:
      return "its plugin is not installed (install it, or point HDF5_PLUGIN_PATH at it)";
  }
}

// HDF5 loads a plugin filter on the first question about it; a failed load only means "absent".
bool filterAvailable(H5Z_filter_t filter) {
  ErrorScope quiet;
  return H5Zfilter_avail(filter) > 0;
}

}  // namespace

const std::vector<Codec>& allCodecs() {
  static const std::vector<Codec> codecs = {Codec::None, Codec::Gzip, Codec::Lz4,
                                            Codec::BitshuffleLz4};
  return codecs;
}

const char* codecName(Codec codec) {
  switch (codec) {
    case Codec::None:
      return "none";
    case Codec::Gzip:
      return "gzip";
    case Codec::Lz4:
      return "lz4";
    case Codec::BitshuffleLz4:
      return "bitshuffle-lz4";
  }
  return "?";
}

std::string describe(const Compression& c) {
  switch (c.codec) {
    case Codec::None:
      return "None";
    case Codec::Gzip:
      return "gzip (level " + std::to_string(c.level) + ")";
    case Codec::Lz4:
      return "LZ4";
    case Codec::BitshuffleLz4:
      return "Bitshuffle + LZ4";
  }
  return "?";
}

std::string attributeText(const Compression& c) {
  switch (c.codec) {
    case Codec::None:
      return "none";
    case Codec::Gzip:
      return "gzip-" + std::to_string(c.level) + "+shuffle";
    case Codec::Lz4:
      return "lz4 (hdf5 filter 32004)";
    case Codec::BitshuffleLz4:
      return "bitshuffle-lz4 (hdf5 filter 32001, blosc level " + std::to_string(c.level) + ")";
  }
  return "?";
}

Compression parseCompression(const std::string& text) {
  for (const Codec codec : allCodecs()) {
    const std::string name = codecName(codec);
    if (text == name) {
      return {codec, 4};
    }
    if (hasLevel(codec) && text.size() == name.size() + 2 &&
        text.compare(0, name.size(), name) == 0 && text[name.size()] == '-' && text.back() >= '1' &&
        text.back() <= '9') {
      return {codec, text.back() - '0'};
    }
  }
  throw std::invalid_argument("'" + text +
                              "' is not a compression (none, gzip[-1..9], lz4, "
                              "bitshuffle-lz4[-1..9])");
}

bool codecAvailable(Codec codec, std::string* why) {
  const auto absent = [why](const std::string& text) {
    if (why != nullptr) {
      *why = text;
    }
    return false;
  };
  switch (codec) {
    case Codec::None:
      return true;
    case Codec::Gzip:
      return filterAvailable(H5Z_FILTER_DEFLATE) && filterAvailable(H5Z_FILTER_SHUFFLE)
                 ? true
                 : absent("this HDF5 library was built without deflate (gzip)");
    case Codec::Lz4:
      return filterAvailable(kLz4Filter) ? true : absent(pluginHint(kLz4Filter));
    case Codec::BitshuffleLz4:
      return filterAvailable(kBloscFilter) ? true : absent(pluginHint(kBloscFilter));
  }
  return absent("unknown codec");
}

std::string unreadableFilters(hid_t dataset) {
  ErrorScope quiet;
  H5PropertyList creation(H5Dget_create_plist(dataset));
  if (!creation) {
    return {};  // the read itself will say what is wrong
  }
  const int filters = H5Pget_nfilters(creation.get());
  for (int i = 0; i < filters; ++i) {
    unsigned flags = 0;
    std::size_t values = 0;
    char name[64] = {};
    unsigned config = 0;
    const H5Z_filter_t id = H5Pget_filter2(creation.get(), static_cast<unsigned>(i), &flags,
                                           &values, nullptr, sizeof name, name, &config);
    if (id < 0 || filterAvailable(id)) {
      continue;
    }
    std::string why = "compressed with HDF5 filter " + std::to_string(id);
    if (name[0] != '\0') {
      why += std::string(" (") + name + ")";
    }
    return why + ", which is not available here: " + pluginHint(id);
  }
  return {};
}

std::string compressionProblem(const Compression& c) {
  std::string why;
  if (!codecAvailable(c.codec, &why)) {
    return std::string("cannot compress with ") + codecName(c.codec) + ": " + why;
  }
  if (hasLevel(c.codec) && (c.level < 1 || c.level > 9)) {
    return std::string(codecName(c.codec)) + " level " + std::to_string(c.level) +
           " is outside 1..9";
  }
  return {};
}

void applyCompression(hid_t properties, const Compression& c, const std::string& dataset) {
  const std::string problem = compressionProblem(c);
  if (!problem.empty()) {
    throw StoreError(problem);
  }
  switch (c.codec) {
    case Codec::None:
      return;
    case Codec::Gzip:
      checkStatus(H5Pset_shuffle(properties), dataset + ": set shuffle");
      checkStatus(H5Pset_deflate(properties, static_cast<unsigned>(c.level)),
                  dataset + ": set deflate");
      return;
    case Codec::Lz4: {
      const unsigned blockBytes[1] = {0};  // the plugin's default block
      checkStatus(H5Pset_filter(properties, kLz4Filter, H5Z_FLAG_MANDATORY, 1, blockBytes),
                  dataset + ": set the LZ4 filter");
      return;
    }
    case Codec::BitshuffleLz4: {
      // Slots 0-3 are the plugin's own (version, type size, chunk size), filled when it is set.
      const unsigned values[7] = {
          0, 0, 0, 0, static_cast<unsigned>(c.level), kBloscBitShuffle, kBloscLz4};
      checkStatus(H5Pset_filter(properties, kBloscFilter, H5Z_FLAG_MANDATORY, 7, values),
                  dataset + ": set the Blosc filter");
      return;
    }
  }
}

}  // namespace cineflow::store
