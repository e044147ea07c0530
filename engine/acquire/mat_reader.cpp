#include "acquire/mat_reader.hpp"

#include <charconv>

#include "acquire/frame_source.hpp"  // SourceError

namespace cineflow::acquire {
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

}  // namespace

std::size_t elementCount(const matvar_t& var) {
  std::size_t count = 1;
  for (int i = 0; i < var.rank; ++i) {
    count *= var.dims[i];
  }
  return count;
}

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
  file_.reset(Mat_Open(path.string().c_str(), MAT_ACC_RDONLY));
  if (!file_) {
    fail("not a MATLAB file that matio can read (v4, v5, or v7.3)");
  }
}

void MatReader::fail(const std::string& why) const {
  throw SourceError(path_.filename().string() + ": " + why);
}

const matvar_t* MatReader::find(const std::string& name, const std::string& role) {
  for (const auto& [cachedName, var] : vars_) {
    if (cachedName == name) {
      return var.get();
    }
  }
  MatVar var(Mat_VarRead(file_.get(), name.c_str()));
  if (!var) {
    // Absent, or present and unreadable: the header alone tells them apart.
    const MatVar info(Mat_VarReadInfo(file_.get(), name.c_str()));
    if (!info) {
      return nullptr;
    }
    fail("the variable '" + name + "' (" + role + ", " + describe(*info) +
         ") cannot be read: the file may be truncated or corrupt, or the variable too large for "
         "this computer's memory");
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
  const std::vector<std::string> parts = split(spec, '.');
  const matvar_t* var = find(parts.front(), spec);
  for (std::size_t i = 1; var != nullptr && i < parts.size(); ++i) {
    if (var->class_type != MAT_C_STRUCT || elementCount(*var) != 1) {
      return false;
    }
    var = Mat_VarGetStructFieldByName(const_cast<matvar_t*>(var), parts[i].c_str(), 0);
  }
  return var != nullptr;
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

}  // namespace cineflow::acquire
