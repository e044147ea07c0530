#pragma once
// Thin RAII layer over the HDF5 C API, shared by every reader and writer in the engine
// (RfFileSource, BmodeWriter, ...). Internal to cineflow_engine: HDF5 is a private dependency, so
// only .cpp files include this header.
//
// Error policy: HDF5 reports failures through a per-thread error stack and, by default, prints it
// to stderr. Each public entry point that calls HDF5 holds an ErrorScope, which silences that
// printing for its thread; on failure the helpers throw Hdf5Error whose message ends with the
// HDF5 stack (errorStackText()), and callers rethrow it with the file name in their own type.

#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cineflow::store {

// A failed HDF5 operation, without file context (the caller adds it).
class Hdf5Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Owns one HDF5 identifier and closes it with `Close`. Copies deleted, moves allowed; the
// destructor never throws (a failed close there is ignored; use close() where it matters).
template <herr_t (*Close)(hid_t)>
class H5Owner {
 public:
  H5Owner() noexcept = default;
  explicit H5Owner(hid_t id) noexcept : id_(id) {}
  H5Owner(const H5Owner&) = delete;
  H5Owner& operator=(const H5Owner&) = delete;
  H5Owner(H5Owner&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
  H5Owner& operator=(H5Owner&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
    }
    return *this;
  }
  ~H5Owner() { reset(); }

  hid_t get() const noexcept { return id_; }
  bool valid() const noexcept { return id_ >= 0; }
  explicit operator bool() const noexcept { return valid(); }

  // Closes now and reports whether HDF5 accepted it (false: see errorStackText()).
  bool close() noexcept {
    if (!valid()) {
      return true;
    }
    const herr_t status = Close(std::exchange(id_, H5I_INVALID_HID));
    return status >= 0;
  }
  void reset() noexcept { (void)close(); }

 private:
  hid_t id_ = H5I_INVALID_HID;
};

using H5File = H5Owner<H5Fclose>;
using H5Group = H5Owner<H5Gclose>;
using H5Dataset = H5Owner<H5Dclose>;
using H5Dataspace = H5Owner<H5Sclose>;
using H5Datatype = H5Owner<H5Tclose>;  // never for predefined types such as H5T_NATIVE_INT
using H5Attribute = H5Owner<H5Aclose>;
using H5PropertyList = H5Owner<H5Pclose>;

// While alive, HDF5 prints nothing to stderr from this thread (the automatic error handler is
// per thread in thread-safe builds), and the error stack starts empty. Restores the previous
// handler on destruction.
class ErrorScope {
 public:
  ErrorScope() noexcept;
  ~ErrorScope();
  ErrorScope(const ErrorScope&) = delete;
  ErrorScope& operator=(const ErrorScope&) = delete;

 private:
  H5E_auto2_t previousFunc_ = nullptr;
  void* previousData_ = nullptr;
};

// The current thread's HDF5 error stack, innermost cause last, as one line ("" when empty).
// Clears the stack.
std::string errorStackText();

// Throws Hdf5Error("<what>: <error stack>") when `status` is negative; returns `status` otherwise.
herr_t checkStatus(herr_t status, const std::string& what);
hid_t checkId(hid_t id, const std::string& what);
// Same for calls returning htri_t; returns the boolean.
bool checkTri(htri_t value, const std::string& what);

// "int16", "uint8", "float32", "float64", "string", "compound", ... for messages.
std::string describeType(hid_t type);
// Current extent of a dataset, outermost dimension first.
std::vector<hsize_t> datasetShape(hid_t dataset);
// "[1][3][192][2313]"
std::string shapeText(const std::vector<hsize_t>& shape);

// Opens `path` read-only, without file locking (it fails on some read-only and network file
// systems; and every reader in the process opens so, since HDF5 refuses a second open of a file
// with other locking flags: a volume opened from the recording being replayed). A raw recording
// still being written, or cut off by a crash, is marked open for writing: then in
// single-writer/multiple-reader read mode, which may read it all the same. Invalid when neither
// opens; `reason` then says why the plain open failed. A file another part of the process holds
// open with HDF5's default access opens with that access.
H5File openForReading(const std::filesystem::path& path, std::string& reason);

bool linkExists(hid_t location, const char* path);
bool attributeExists(hid_t object, const char* name);

// Scalar (or one-element) numeric attribute of any integer or float type, converted to double.
// Throws Hdf5Error "attribute <name>: missing" / "...: expected a number, found string" / ...
double readNumberAttribute(hid_t object, const char* name);
// Scalar string attribute, variable or fixed length.
std::string readStringAttribute(hid_t object, const char* name);
void writeNumberAttribute(hid_t object, const char* name, double value);
// Written as a 64-bit signed integer (counts, numbers, factors: readers see an integer type).
void writeIntegerAttribute(hid_t object, const char* name, std::int64_t value);
// Written as a variable-length UTF-8 string, as h5py does.
void writeStringAttribute(hid_t object, const char* name, const std::string& value);

// One-dimensional numeric dataset of any integer or float type, converted to double.
std::vector<double> readDoubleDataset(hid_t location, const char* path);
// Creates a contiguous 1-D float64 dataset holding `values`.
H5Dataset writeDoubleDataset(hid_t location, const char* name, std::span<const double> values);

}  // namespace cineflow::store
