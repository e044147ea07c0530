#include "ultrasound/mat_reader.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>

#include "acquire/frame_source.hpp"  // SourceError
#include "acquire/input_bounds.hpp"

namespace cineflow::ultrasound {
namespace {

std::string dimsText(const matvar_t& var) {
  std::string text;
  for (int i = 0; i < var.rank; ++i) {
    if (i > 0) {
      text += 'x';
    }
    text += std::to_string(var.dims[i]);
  }
  return text;
}

const char* className(const matvar_t& var) {
  if (var.isLogical) {
    return "logical";
  }
  switch (var.class_type) {
    case MAT_C_DOUBLE:
      return "double";
    case MAT_C_SINGLE:
      return "single";
    case MAT_C_INT8:
      return "int8";
    case MAT_C_UINT8:
      return "uint8";
    case MAT_C_INT16:
      return "int16";
    case MAT_C_UINT16:
      return "uint16";
    case MAT_C_INT32:
      return "int32";
    case MAT_C_UINT32:
      return "uint32";
    case MAT_C_INT64:
      return "int64";
    case MAT_C_UINT64:
      return "uint64";
    case MAT_C_STRUCT:
      return "struct";
    case MAT_C_CELL:
      return "cell";
    case MAT_C_CHAR:
      return "char";
    case MAT_C_SPARSE:
      return "sparse";
    case MAT_C_OBJECT:
      return "object";
    case MAT_C_FUNCTION:
      return "function handle";
    case MAT_C_OPAQUE:
      return "opaque";
    default:
      return "unsupported";
  }
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t next = text.find(separator, start);
    parts.push_back(text.substr(start, next - start));
    if (next == std::string::npos) {
      return parts;
    }
    start = next + 1;
  }
}

// Whether matio read a struct's fields whole: a damaged one may lack its data, hold fewer
// fields than it counts, or have no names, and asking matio for a field then reads through a
// null pointer.
bool structIntact(const matvar_t& var) {
  const unsigned count = Mat_VarGetNumberOfFields(const_cast<matvar_t*>(&var));
  char* const* names = Mat_VarGetStructFieldnames(&var);
  if (var.data == nullptr || var.nbytes / sizeof(matvar_t*) < count ||
      (count > 0 && names == nullptr)) {
    return false;
  }
  for (unsigned f = 0; f < count; ++f) {
    if (names[f] == nullptr) {
      return false;
    }
  }
  return true;
}

std::string fieldNames(const matvar_t& var) {
  std::string fields;
  const unsigned count = Mat_VarGetNumberOfFields(const_cast<matvar_t*>(&var));
  char* const* names = Mat_VarGetStructFieldnames(&var);
  for (unsigned f = 0; f < count; ++f) {
    if (f > 0) {
      fields += ", ";
    }
    fields += names[f];
  }
  return fields.empty() ? "none" : fields;
}

// A v5 file is a 128-byte header and a chain of data elements, each an 8-byte tag (type, byte
// count) and its data; matio reads a cut chain as if the file ended early. Returns why the chain
// overruns the file, or an empty string (also for v4 and v7.3 files, whose layout is not this).
std::string v5Truncation(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::array<char, 128> header{};
  if (!file.read(header.data(), header.size()) ||
      std::string_view(header.data(), 10) != "MATLAB 5.0") {
    return {};
  }
  const bool swap = header[126] == 'M' && header[127] == 'I';  // written big-endian
  const auto word = [swap](const unsigned char* b) {
    return swap ? (std::uint32_t{b[0]} << 24 | std::uint32_t{b[1]} << 16 |
                   std::uint32_t{b[2]} << 8 | b[3])
                : (std::uint32_t{b[3]} << 24 | std::uint32_t{b[2]} << 16 |
                   std::uint32_t{b[1]} << 8 | b[0]);
  };
  constexpr std::uint32_t kMatrix = 14;  // miMATRIX, padded to 8 bytes; miCOMPRESSED is not
  const std::uintmax_t size = std::filesystem::file_size(path);
  std::uintmax_t offset = header.size();
  for (int element = 1; offset + 8 <= size; ++element) {
    std::array<unsigned char, 8> tag{};
    file.seekg(static_cast<std::streamoff>(offset));
    if (!file.read(reinterpret_cast<char*>(tag.data()), tag.size())) {
      return {};
    }
    const std::uint32_t type = word(tag.data());
    std::uintmax_t bytes = (type >> 16) != 0 ? 0 : word(tag.data() + 4);  // small element: 0
    if (type == kMatrix) {
      bytes = (bytes + 7) / 8 * 8;
    }
    if (offset + 8 + bytes > size) {
      return "the file is truncated: its variable " + std::to_string(element) + " needs " +
             std::to_string(offset + 8 + bytes) + " bytes, but the file has " +
             std::to_string(size);
    }
    // Inside an uncompressed variable, its array flags, dimensions and name must lie within it:
    // matio sizes its dimensions' array from the dimensions' tag before reading them.
    if (type == kMatrix) {
      const std::uintmax_t end = offset + 8 + bytes;
      std::uintmax_t at = offset + 8;
      for (int part = 0; part < 3 && at + 8 <= end; ++part) {
        file.seekg(static_cast<std::streamoff>(at));
        if (!file.read(reinterpret_cast<char*>(tag.data()), tag.size())) {
          return {};
        }
        const std::uint32_t partType = word(tag.data());
        const std::uintmax_t partBytes =
            (partType >> 16) != 0 ? 0 : (std::uintmax_t{word(tag.data() + 4)} + 7) / 8 * 8;
        if (at + 8 + partBytes > end) {
          static constexpr const char* kParts[] = {"array flags", "dimensions", "name"};
          return "variable " + std::to_string(element) + " is damaged: its " + kParts[part] +
                 " state " + std::to_string(partBytes) + " bytes, more than the variable holds";
        }
        at += 8 + partBytes;
      }
      file.clear();
    }
    offset += 8 + bytes;
  }
  return {};
}

}  // namespace

std::size_t elementCount(const matvar_t& var) {
  std::uint64_t count = 1;
  for (int i = 0; i < var.rank; ++i) {
    if (__builtin_mul_overflow(count, var.dims[i], &count)) {
      return std::numeric_limits<std::size_t>::max();
    }
  }
  return count;
}

namespace {

// Bytes of one element of a numeric class in memory; 0 for the others.
std::uint64_t classBytes(matio_classes type) {
  switch (type) {
    case MAT_C_DOUBLE:
    case MAT_C_INT64:
    case MAT_C_UINT64:
      return 8;
    case MAT_C_SINGLE:
    case MAT_C_INT32:
    case MAT_C_UINT32:
      return 4;
    case MAT_C_INT16:
    case MAT_C_UINT16:
    case MAT_C_CHAR:
      return 2;
    case MAT_C_INT8:
    case MAT_C_UINT8:
      return 1;
    default:
      return 0;
  }
}

// The bytes a variable's header says its data take in memory: its elements times their size
// (twice for complex data), a struct's or cell's fields' together, as far as matio read them;
// nothing when that passes 64 bits.
std::optional<std::uint64_t> statedBytes(const matvar_t& var, int depth = 0) {
  const std::size_t count = elementCount(var);
  if (count == std::numeric_limits<std::size_t>::max()) {
    return std::nullopt;
  }
  if (var.class_type == MAT_C_STRUCT || var.class_type == MAT_C_CELL) {
    if (var.data == nullptr || depth > 8) {
      return 0;
    }
    std::uint64_t fields =
        var.class_type == MAT_C_STRUCT ? Mat_VarGetNumberOfFields(const_cast<matvar_t*>(&var)) : 1;
    std::uint64_t slots = 0;
    if (__builtin_mul_overflow(fields, count, &slots) || slots > var.nbytes / sizeof(void*)) {
      return 0;  // matio holds fewer field pointers than that: it did not read them
    }
    std::uint64_t total = 0;
    const auto* const* children = static_cast<const matvar_t* const*>(var.data);
    for (std::uint64_t k = 0; k < slots; ++k) {
      if (children[k] == nullptr) {
        continue;
      }
      const auto child = statedBytes(*children[k], depth + 1);
      if (!child || __builtin_add_overflow(total, *child, &total)) {
        return std::nullopt;
      }
    }
    return total;
  }
  return acquire::checkedProduct({count, classBytes(var.class_type), var.isComplex ? 2u : 1u});
}

}  // namespace

std::string describe(const matvar_t& var) {
  return "a " + dimsText(var) + " " + className(var) + (var.isComplex ? " complex" : "") + " array";
}

std::optional<double> parseMatNumber(const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) {
    return std::nullopt;
  }
  return value;
}

MatReader::MatReader(const std::filesystem::path& path) : path_(path) {
  if (!std::filesystem::exists(path)) {
    fail("no such file");
  }
  if (const std::string truncated = v5Truncation(path); !truncated.empty()) {
    fail(truncated);
  }
  std::error_code ec;
  fileBytes_ = std::filesystem::file_size(path, ec);
  if (ec) {
    fail("cannot read its size: " + ec.message());
  }
  file_.reset(Mat_Open(path.string().c_str(), MAT_ACC_RDONLY));
  if (!file_) {
    fail("not a MATLAB file that matio can read (v4, v5, or v7.3)");
  }
}

void MatReader::fail(const std::string& why) const {
  throw acquire::SourceError(path_.filename().string() + ": " + why);
}

const matvar_t* MatReader::find(const std::string& name, const std::string& role) {
  for (const auto& [cachedName, var] : vars_) {
    if (cachedName == name) {
      return var.get();
    }
  }
  {
    // Bounds before allocation: what the variable's header states, against what the file can
    // hold (deflate, which v5 and v7.3 files may use, packs at most 1032 bytes into one).
    const MatVar info(Mat_VarReadInfo(file_.get(), name.c_str()));
    if (!info) {
      return nullptr;
    }
    constexpr std::uint64_t kDeflateRatio = 1032;
    const std::optional<std::uint64_t> stated = statedBytes(*info);
    std::uint64_t holds = 0;
    if (__builtin_mul_overflow(fileBytes_, kDeflateRatio, &holds) || !stated ||
        *stated > std::min<std::uint64_t>(holds, kMaxVariableBytes)) {
      fail("the variable '" + name + "' (" + role + ") is " + describe(*info) + ", which needs " +
           (stated ? std::to_string(*stated) + " bytes" : "more bytes than 64 bits count") +
           ", more than a file of " + std::to_string(fileBytes_) +
           " bytes can hold or Cineflow reads (" + std::to_string(kMaxVariableBytes >> 30) +
           " GiB): the file is damaged");
    }
  }
  MatVar var(Mat_VarRead(file_.get(), name.c_str()));
  if (!var) {
    // Absent, or present and unreadable: the header alone tells them apart.
    const MatVar info(Mat_VarReadInfo(file_.get(), name.c_str()));
    if (!info) {
      return nullptr;
    }
    switch (info->class_type) {
      case MAT_C_OBJECT:
      case MAT_C_FUNCTION:
      case MAT_C_OPAQUE:
      case MAT_C_EMPTY:
        fail("the variable '" + name + "' (" + role + ") is " + describe(*info) +
             ", which matio cannot read: save it as a numeric array or struct");
      default:
        fail("the variable '" + name + "' (" + role + ", " + describe(*info) +
             ") cannot be read: the file may be truncated or corrupt, or the variable too large "
             "for this computer's memory");
    }
  }
  vars_.emplace_back(name, std::move(var));
  return vars_.back().second.get();
}

const matvar_t& MatReader::lookup(const std::string& spec, const std::string& role) {
  const std::vector<std::string> parts = split(spec, '.');
  const matvar_t* var = find(parts.front(), role);
  if (var == nullptr) {
    fail("no variable '" + parts.front() + "' (" + role + ", mapped from " + spec +
         "); the file has: " + variableNames());
  }
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (var->class_type != MAT_C_STRUCT || elementCount(*var) != 1) {
      fail(spec + " (" + role + "): " + parts[i - 1] + " is " + describe(*var) +
           ", not a 1x1 struct");
    }
    if (!structIntact(*var)) {
      fail(spec + " (" + role + "): the struct " + parts[i - 1] +
           " is damaged (matio could not read its fields): the file may be truncated or corrupt");
    }
    const matvar_t* field =
        Mat_VarGetStructFieldByName(const_cast<matvar_t*>(var), parts[i].c_str(), 0);
    if (field == nullptr) {
      fail(spec + " (" + role + "): the struct " + parts[i - 1] + " has no field '" + parts[i] +
           "' (its fields: " + fieldNames(*var) + ")");
    }
    var = field;
  }
  return *var;
}

std::vector<double> MatReader::numbers(const std::string& spec, const std::string& role) {
  const matvar_t& var = lookup(spec, role);
  std::vector<double> values(elementCount(var));
  const bool numeric = withNumbers(var, [&](const auto* data) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = static_cast<double>(data[i]);
    }
  });
  if (!numeric) {
    fail(spec + " (" + role + "): expected real numbers, found " + describe(var));
  }
  return values;
}

double MatReader::scalar(const std::string& spec, const std::string& role) {
  if (const auto literal = parseMatNumber(spec)) {
    return *literal;
  }
  const std::vector<double> values = numbers(spec, role);
  if (values.size() != 1) {
    fail(spec + " (" + role + "): expected one number, found " + describe(lookup(spec, role)));
  }
  return values.front();
}

bool MatReader::has(const std::string& spec) {
  if (parseMatNumber(spec)) {
    return true;
  }
  try {
    lookup(spec, "optional");
    return true;
  } catch (const acquire::SourceError&) {
    return false;  // absent, or a variable that cannot be read: counts as not given
  }
}

std::string MatReader::variableNames() {
  std::string names;
  Mat_Rewind(file_.get());
  while (matvar_t* info = Mat_VarReadNextInfo(file_.get())) {
    if (!names.empty()) {
      names += ", ";
    }
    names += info->name != nullptr ? info->name : "?";
    Mat_VarFree(info);
  }
  return names.empty() ? "no variables" : names;
}

}  // namespace cineflow::ultrasound
