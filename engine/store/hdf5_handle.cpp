#include "store/hdf5_handle.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "acquire/input_bounds.hpp"

namespace cineflow::store {

namespace {

#if H5_VERS_MAJOR == 1 && (H5_VERS_MINOR < 14 || (H5_VERS_MINOR == 14 && H5_VERS_RELEASE < 1))
// HDF5 before 1.14.1 keeps a dangling file ID when H5Fclose fails (a full disk during the final
// flush) and then crashes in its atexit handler when it closes that ID again (HDFFV-11052,
// h5py#914). Every Cineflow HDF5 object is closed by its RAII owner well before exit, so the
// library's exit-time clean-up has nothing left to do but crash: opt out of it. H5dont_atexit
// only works before the library initialises, hence a static initialiser in the one translation
// unit every HDF5 user in the engine links.
[[maybe_unused]] const bool kSkipHdf5AtExit = [] {
  H5dont_atexit();
  return true;
}();
#endif

}  // namespace

ErrorScope::ErrorScope() noexcept {
  if (H5Eget_auto2(H5E_DEFAULT, &previousFunc_, &previousData_) < 0) {
    previousFunc_ = nullptr;
    previousData_ = nullptr;
  }
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  H5Eclear2(H5E_DEFAULT);
}

ErrorScope::~ErrorScope() {
  H5Eclear2(H5E_DEFAULT);
  H5Eset_auto2(H5E_DEFAULT, previousFunc_, previousData_);
}

namespace {

struct StackText {
  std::string text;
  std::string lastMinor;
};

herr_t appendEntry(unsigned /*n*/, const H5E_error2_t* entry, void* clientData) {
  auto& out = *static_cast<StackText*>(clientData);
  if (entry->desc != nullptr && entry->desc[0] != '\0') {
    // HDF5 repeats the same description at several levels; keep each once.
    if (out.text.find(entry->desc) == std::string::npos) {
      if (!out.text.empty()) {
        out.text += ": ";
      }
      out.text += entry->desc;
    }
  }
  char minor[256] = {};
  H5E_type_t type{};
  if (H5Eget_msg(entry->min_num, &type, minor, sizeof minor) > 0) {
    out.lastMinor = minor;
  }
  return 0;
}

}  // namespace

std::string errorStackText() {
  StackText out;
  // Outermost (the API call) first, the root cause last.
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, appendEntry, &out);
  H5Eclear2(H5E_DEFAULT);
  if (!out.lastMinor.empty() && out.text.find(out.lastMinor) == std::string::npos) {
    out.text += out.text.empty() ? out.lastMinor : " (" + out.lastMinor + ")";
  }
  // Some HDF5 messages embed ctime() output, newline included; keep the message on one line.
  std::replace(out.text.begin(), out.text.end(), '\n', ' ');
  constexpr std::size_t maxLength = 600;
  if (out.text.size() > maxLength) {
    out.text.resize(maxLength);
    out.text += "...";
  }
  return out.text;
}

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::string stack = errorStackText();
  throw Hdf5Error(stack.empty() ? what : what + " (HDF5: " + stack + ")");
}

}  // namespace

herr_t checkStatus(herr_t status, const std::string& what) {
  if (status < 0) {
    fail(what);
  }
  return status;
}

hid_t checkId(hid_t id, const std::string& what) {
  if (id < 0) {
    fail(what);
  }
  return id;
}

bool checkTri(htri_t value, const std::string& what) {
  if (value < 0) {
    fail(what);
  }
  return value > 0;
}

std::string describeType(hid_t type) {
  const std::size_t bytes = H5Tget_size(type);
  const std::string size = " of " + std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  const char* order = H5Tget_order(type) == H5T_ORDER_BE ? "big-endian " : "";
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return order + std::string(H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int") +
             std::to_string(bytes * 8);
    case H5T_FLOAT:
      return order + std::string("float") + std::to_string(bytes * 8);
    case H5T_STRING:
      return H5Tis_variable_str(type) > 0 ? "variable-length string" : "fixed-length string" + size;
    case H5T_COMPOUND:
      return "compound" + size + " (" + std::to_string(H5Tget_nmembers(type)) + " members)";
    case H5T_ENUM:
      return "enum" + size;
    case H5T_ARRAY:
      return "array" + size;
    case H5T_VLEN:
      return "variable-length sequence";
    case H5T_OPAQUE:
      return "opaque" + size;
    case H5T_REFERENCE:
      return "reference";
    case H5T_BITFIELD:
      return "bitfield" + size;
    case H5T_TIME:
      return "time" + size;
    default:
      return "unknown type" + size;
  }
}

std::vector<hsize_t> datasetShape(hid_t dataset) {
  H5Dataspace space(checkId(H5Dget_space(dataset), "get dataspace"));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) {
    fail("get rank");
  }
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0 && H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr) < 0) {
    fail("get extent");
  }
  return dims;
}

std::string shapeText(const std::vector<hsize_t>& shape) {
  if (shape.empty()) {
    return "scalar";
  }
  std::string text;
  for (hsize_t d : shape) {
    // Appended piecewise: "[" + std::to_string(d) trips GCC 12's -Wrestrict false positive.
    text += '[';
    text += std::to_string(d);
    text += ']';
  }
  return text;
}

bool linkExists(hid_t location, const char* path) {
  // H5Lexists fails (rather than answering false) when an intermediate group is missing, so walk
  // the path one component at a time.
  const std::string full(path);
  std::size_t pos = full.starts_with('/') ? 1 : 0;
  while (pos <= full.size()) {
    std::size_t next = full.find('/', pos);
    if (next == std::string::npos) {
      next = full.size();
    }
    const std::string prefix = full.substr(0, next);
    if (!prefix.empty() && prefix != "/") {
      const htri_t exists = H5Lexists(location, prefix.c_str(), H5P_DEFAULT);
      if (exists <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return false;
      }
    }
    pos = next + 1;
  }
  return true;
}

bool attributeExists(hid_t object, const char* name) {
  return checkTri(H5Aexists(object, name), std::string("attribute ") + name + ": query");
}

namespace {

H5Attribute openAttribute(hid_t object, const char* name) {
  const std::string what = std::string("attribute ") + name;
  if (!attributeExists(object, name)) {
    throw Hdf5Error(what + ": missing");
  }
  return H5Attribute(checkId(H5Aopen(object, name, H5P_DEFAULT), what + ": open"));
}

void requireSingleElement(hid_t attribute, const std::string& what) {
  H5Dataspace space(checkId(H5Aget_space(attribute), what + ": get dataspace"));
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  if (points != 1) {
    throw Hdf5Error(what + ": expected a single value, found " + std::to_string(points) +
                    " values");
  }
}

}  // namespace

double readNumberAttribute(hid_t object, const char* name) {
  const std::string what = std::string("attribute ") + name;
  H5Attribute attribute = openAttribute(object, name);
  H5Datatype type(checkId(H5Aget_type(attribute.get()), what + ": get type"));
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
    throw Hdf5Error(what + ": expected a number, found " + describeType(type.get()));
  }
  requireSingleElement(attribute.get(), what);
  double value = 0;
  checkStatus(H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &value), what + ": read");
  return value;
}

std::string readStringAttribute(hid_t object, const char* name) {
  const std::string what = std::string("attribute ") + name;
  H5Attribute attribute = openAttribute(object, name);
  H5Datatype fileType(checkId(H5Aget_type(attribute.get()), what + ": get type"));
  if (H5Tget_class(fileType.get()) != H5T_STRING) {
    throw Hdf5Error(what + ": expected a string, found " + describeType(fileType.get()));
  }
  requireSingleElement(attribute.get(), what);
  H5Datatype memType(checkId(H5Tcopy(H5T_C_S1), what + ": copy type"));
  // HDF5 converts between strings only of the same character set (h5py writes UTF-8).
  checkStatus(H5Tset_cset(memType.get(), H5Tget_cset(fileType.get())),
              what + ": set character set");
  if (checkTri(H5Tis_variable_str(fileType.get()), what + ": query type")) {
    checkStatus(H5Tset_size(memType.get(), H5T_VARIABLE), what + ": set type size");
    char* text = nullptr;
    checkStatus(H5Aread(attribute.get(), memType.get(), &text), what + ": read");
    std::string value = text != nullptr ? text : "";
    H5free_memory(text);
    return value;
  }
  const std::size_t size = H5Tget_size(fileType.get());
  constexpr std::size_t kMaxStringBytes = 1 << 20;  // bounds before allocation
  if (size == 0 || size > kMaxStringBytes) {
    throw Hdf5Error(what + ": a string of " + std::to_string(size) +
                    " bytes (Cineflow reads strings of 1 to " + std::to_string(kMaxStringBytes) +
                    ")");
  }
  checkStatus(H5Tset_size(memType.get(), size), what + ": set type size");
  std::string buffer(size + 1, '\0');
  checkStatus(H5Aread(attribute.get(), memType.get(), buffer.data()), what + ": read");
  buffer.resize(std::min(buffer.find('\0'), size));
  return buffer;
}

namespace {

H5Attribute createScalarAttribute(hid_t object, const char* name, hid_t fileType) {
  const std::string what = std::string("attribute ") + name;
  if (attributeExists(object, name)) {
    checkStatus(H5Adelete(object, name), what + ": replace");
  }
  H5Dataspace space(checkId(H5Screate(H5S_SCALAR), what + ": create dataspace"));
  return H5Attribute(
      checkId(H5Acreate2(object, name, fileType, space.get(), H5P_DEFAULT, H5P_DEFAULT),
              what + ": create"));
}

}  // namespace

void writeNumberAttribute(hid_t object, const char* name, double value) {
  H5Attribute attribute = createScalarAttribute(object, name, H5T_IEEE_F64LE);
  checkStatus(H5Awrite(attribute.get(), H5T_NATIVE_DOUBLE, &value),
              std::string("attribute ") + name + ": write");
}

void writeIntegerAttribute(hid_t object, const char* name, std::int64_t value) {
  H5Attribute attribute = createScalarAttribute(object, name, H5T_STD_I64LE);
  checkStatus(H5Awrite(attribute.get(), H5T_NATIVE_INT64, &value),
              std::string("attribute ") + name + ": write");
}

void writeStringAttribute(hid_t object, const char* name, const std::string& value) {
  const std::string what = std::string("attribute ") + name;
  H5Datatype type(checkId(H5Tcopy(H5T_C_S1), what + ": copy type"));
  checkStatus(H5Tset_size(type.get(), H5T_VARIABLE), what + ": set type size");
  checkStatus(H5Tset_cset(type.get(), H5T_CSET_UTF8), what + ": set character set");
  H5Attribute attribute = createScalarAttribute(object, name, type.get());
  const char* text = value.c_str();
  checkStatus(H5Awrite(attribute.get(), type.get(), &text), what + ": write");
}

std::vector<double> readDoubleDataset(hid_t location, const char* path) {
  const std::string what = std::string(path);
  if (!linkExists(location, path)) {
    throw Hdf5Error(what + ": missing");
  }
  H5Dataset dataset(H5Dopen2(location, path, H5P_DEFAULT));
  if (!dataset) {
    H5Eclear2(H5E_DEFAULT);
    throw Hdf5Error(what + ": expected a dataset, found another kind of object");
  }
  H5Datatype type(checkId(H5Dget_type(dataset.get()), what + ": get type"));
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
    throw Hdf5Error(what + ": expected numbers, found " + describeType(type.get()));
  }
  const std::vector<hsize_t> shape = datasetShape(dataset.get());
  if (shape.size() != 1) {
    throw Hdf5Error(what + ": expected a 1-D dataset, found shape " + shapeText(shape));
  }
  // Bounds before allocation: a damaged or hostile file may state any length.
  if (shape[0] > acquire::frameBytesLimit() / sizeof(double)) {
    throw Hdf5Error(what + ": holds " + std::to_string(shape[0]) +
                    " values, more than Cineflow reads into memory at once (" +
                    std::to_string(acquire::frameBytesLimit() / sizeof(double)) + ")");
  }
  std::vector<double> values(static_cast<std::size_t>(shape[0]));
  if (!values.empty()) {
    checkStatus(
        H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
        what + ": read");
  }
  return values;
}

H5Dataset writeDoubleDataset(hid_t location, const char* name, std::span<const double> values) {
  const std::string what = std::string(name);
  const hsize_t dims[1] = {values.size()};
  H5Dataspace space(checkId(H5Screate_simple(1, dims, nullptr), what + ": create dataspace"));
  H5Dataset dataset(checkId(H5Dcreate2(location, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                       H5P_DEFAULT, H5P_DEFAULT),
                            what + ": create"));
  if (!values.empty()) {
    checkStatus(
        H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
        what + ": write");
  }
  return dataset;
}

H5File openForReading(const std::filesystem::path& path, std::string& reason) {
  const H5PropertyList access(H5Pcreate(H5P_FILE_ACCESS));
  if (!access) {
    reason = errorStackText();
    return {};
  }
  H5Pset_file_locking(access.get(), false, true);
  H5File file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get()));
  if (!file) {
    reason = errorStackText();
    file = H5File(H5Fopen(path.c_str(), H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, access.get()));
  }
  if (!file) {
    // Open elsewhere in this process with HDF5's default (locking) access: only that matches.
    file = H5File(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  }
  if (file) {
    errorStackText();  // the failed attempts' errors are not this open's
  }
  return file;
}

}  // namespace cineflow::store
