#include "acquire/mat_import.hpp"

#include <matio.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <type_traits>

namespace cineflow::acquire {
namespace {

struct MatCloser {
  void operator()(mat_t* mat) const { Mat_Close(mat); }
};
struct VarFreer {
  void operator()(matvar_t* var) const { Mat_VarFree(var); }
};
using MatFile = std::unique_ptr<mat_t, MatCloser>;
using MatVar = std::unique_ptr<matvar_t, VarFreer>;

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

std::size_t elementCount(const matvar_t& var) {
  std::size_t count = 1;
  for (int i = 0; i < var.rank; ++i) {
    count *= var.dims[i];
  }
  return count;
}

const char* className(matio_classes type) {
  switch (type) {
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
    default:
      return "unsupported";
  }
}

std::string describe(const matvar_t& var) {
  return "a " + dimsText(var) + " " + className(var.class_type) +
         (var.isComplex ? " complex" : "") + " array";
}

// Calls visit(i, value) for every element of a real numeric variable; false for other classes.
// Calls use(data) with the typed data of a real numeric variable; false for other classes (and
// for data matio did not read).
template <class Use>
bool withNumbers(const matvar_t& var, Use use) {
  if (elementCount(var) > 0 && var.data == nullptr) {
    return false;
  }
  switch (var.class_type) {
    case MAT_C_DOUBLE:
      use(static_cast<const double*>(var.data));
      return true;
    case MAT_C_SINGLE:
      use(static_cast<const float*>(var.data));
      return true;
    case MAT_C_INT8:
      use(static_cast<const std::int8_t*>(var.data));
      return true;
    case MAT_C_UINT8:
      use(static_cast<const std::uint8_t*>(var.data));
      return true;
    case MAT_C_INT16:
      use(static_cast<const std::int16_t*>(var.data));
      return true;
    case MAT_C_UINT16:
      use(static_cast<const std::uint16_t*>(var.data));
      return true;
    case MAT_C_INT32:
      use(static_cast<const std::int32_t*>(var.data));
      return true;
    case MAT_C_UINT32:
      use(static_cast<const std::uint32_t*>(var.data));
      return true;
    case MAT_C_INT64:
      use(static_cast<const std::int64_t*>(var.data));
      return true;
    case MAT_C_UINT64:
      use(static_cast<const std::uint64_t*>(var.data));
      return true;
    default:
      return false;
  }
}

// Calls visit(i, value) for every element of a real numeric variable; false for other classes.
template <class Visit>
bool visitNumbers(const matvar_t& var, Visit visit) {
  const std::size_t n = elementCount(var);
  return withNumbers(var, [&](const auto* data) {
    for (std::size_t i = 0; i < n; ++i) {
      visit(i, static_cast<double>(data[i]));
    }
  });
}

std::optional<double> parseNumber(const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) {
    return std::nullopt;
  }
  return value;
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

class MatReader {
 public:
  explicit MatReader(const std::filesystem::path& path) : path_(path) {
    if (!std::filesystem::exists(path)) {
      fail("no such file");
    }
    file_.reset(Mat_Open(path.string().c_str(), MAT_ACC_RDONLY));
    if (!file_) {
      fail("not a MATLAB file that matio can read (v4, v5, or v7.3)");
    }
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw SourceError(path_.filename().string() + ": " + why);
  }

  // The variable or struct field `spec` ("RF", "param.fs"), read whole; the parent is kept alive.
  const matvar_t& lookup(const std::string& spec, const std::string& role) {
    const std::vector<std::string> parts = split(spec, '.');
    MatVar& top = cache(parts.front(), role, spec);
    const matvar_t* var = top.get();
    for (std::size_t i = 1; i < parts.size(); ++i) {
      if (var->class_type != MAT_C_STRUCT || elementCount(*var) != 1) {
        fail(spec + " (" + role + "): " + parts[i - 1] + " is " + describe(*var) +
             ", not a 1x1 struct");
      }
      const matvar_t* field =
          Mat_VarGetStructFieldByName(const_cast<matvar_t*>(var), parts[i].c_str(), 0);
      if (field == nullptr) {
        std::string fields;
        const unsigned count = Mat_VarGetNumberOfFields(const_cast<matvar_t*>(var));
        char* const* names = Mat_VarGetStructFieldnames(var);
        for (unsigned f = 0; f < count; ++f) {
          if (f > 0) {
            fields += ", ";
          }
          fields += names[f];
        }
        fail(spec + " (" + role + "): the struct " + parts[i - 1] + " has no field '" + parts[i] +
             "' (its fields: " + fields + ")");
      }
      var = field;
    }
    return *var;
  }

  // A real numeric variable's values.
  std::vector<double> numbers(const std::string& spec, const std::string& role) {
    const matvar_t& var = lookup(spec, role);
    std::vector<double> values(elementCount(var));
    if (var.isComplex || !visitNumbers(var, [&](std::size_t i, double v) { values[i] = v; })) {
      fail(spec + " (" + role + "): expected real numbers, found " + describe(var));
    }
    return values;
  }

  // Whether `spec` names a variable (and struct fields) that the file has.
  bool has(const std::string& spec) {
    const std::vector<std::string> parts = split(spec, '.');
    const matvar_t* var = nullptr;
    for (const auto& [name, cached] : vars_) {
      if (name == parts.front()) {
        var = cached.get();
      }
    }
    if (var == nullptr) {
      MatVar read(Mat_VarRead(file_.get(), parts.front().c_str()));
      if (!read) {
        return false;
      }
      vars_.emplace_back(parts.front(), std::move(read));
      var = vars_.back().second.get();
    }
    for (std::size_t i = 1; i < parts.size(); ++i) {
      if (var->class_type != MAT_C_STRUCT || elementCount(*var) != 1) {
        return false;
      }
      var = Mat_VarGetStructFieldByName(const_cast<matvar_t*>(var), parts[i].c_str(), 0);
      if (var == nullptr) {
        return false;
      }
    }
    return true;
  }

  // A literal number or a scalar variable.
  double scalar(const std::string& spec, const std::string& role) {
    if (const auto literal = parseNumber(spec)) {
      return *literal;
    }
    const std::vector<double> values = numbers(spec, role);
    if (values.size() != 1) {
      fail(spec + " (" + role + "): expected one number, found " + describe(lookup(spec, role)));
    }
    return values.front();
  }

 private:
  MatVar& cache(const std::string& name, const std::string& role, const std::string& spec) {
    for (auto& [cachedName, var] : vars_) {
      if (cachedName == name) {
        return var;
      }
    }
    MatVar var(Mat_VarRead(file_.get(), name.c_str()));
    if (!var) {
      fail("no variable '" + name + "' (" + role + ", mapped from " + spec +
           "); the file has: " + variableNames());
    }
    vars_.emplace_back(name, std::move(var));
    return vars_.back().second;
  }

  std::string variableNames() {
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

  std::filesystem::path path_;
  MatFile file_;
  std::vector<std::pair<std::string, MatVar>> vars_;
};

// The dimension sizes of RF named by `order`, and their MATLAB strides.
struct RfLayout {
  std::size_t samples = 1, elements = 1, transmits = 1, frames = 1;
  std::size_t sampleStride = 0, elementStride = 0, transmitStride = 0, frameStride = 0;
};

RfLayout layoutOf(const matvar_t& rf, const MatMapping& mapping, const MatReader& reader) {
  const auto& order = mapping.order;
  for (const std::string& name : order) {
    if (name != "samples" && name != "elements" && name != "transmits" && name != "frames") {
      reader.fail("the mapping's order names '" + name +
                  "': expected samples, elements, transmits or frames");
    }
    if (std::count(order.begin(), order.end(), name) != 1) {
      reader.fail("the mapping's order names '" + name + "' more than once");
    }
  }
  for (const char* required : {"samples", "elements"}) {
    if (std::count(order.begin(), order.end(), required) != 1) {
      reader.fail("the mapping's order must name '" + std::string(required) + "'");
    }
  }
  if (static_cast<std::size_t>(rf.rank) > order.size()) {
    reader.fail(mapping.rf + " is " + describe(rf) + ": the mapping's order names only " +
                std::to_string(order.size()) + " dimensions");
  }
  RfLayout layout;
  std::size_t stride = 1;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t size = i < static_cast<std::size_t>(rf.rank) ? rf.dims[i] : 1;
    std::size_t* count = nullptr;
    std::size_t* strideOut = nullptr;
    if (order[i] == "samples") {
      count = &layout.samples, strideOut = &layout.sampleStride;
    } else if (order[i] == "elements") {
      count = &layout.elements, strideOut = &layout.elementStride;
    } else if (order[i] == "transmits") {
      count = &layout.transmits, strideOut = &layout.transmitStride;
    } else if (order[i] == "frames") {
      count = &layout.frames, strideOut = &layout.frameStride;
    } else {
      reader.fail("the mapping's order names '" + order[i] +
                  "': expected samples, elements, transmits or frames");
    }
    *count = size;
    *strideOut = stride;
    stride *= size;
  }
  return layout;
}

struct PlaneWaves {
  std::vector<double> anglesRad;
  std::vector<double> centreCrossingS;  // when each wave crosses x = 0 after the delays' origin
};

// sin(angle) = c * slope of the delays over the element positions, per transmit (row); the fitted
// delay at x = 0 is when that wave crosses the array centre.
PlaneWaves planeWavesFromDelays(const matvar_t& var, const std::vector<double>& delays,
                                const std::string& spec, const AcquisitionParams& acq,
                                const MatReader& reader) {
  const std::size_t elements = acq.elementXM.size();
  const std::size_t rows = var.rank >= 1 ? var.dims[0] : 1;
  if (var.rank != 2 || var.dims[1] != elements) {
    reader.fail(spec + " (transmit delays): expected a [transmits x " + std::to_string(elements) +
                "] matrix, found " + describe(var));
  }
  const double meanX = std::accumulate(acq.elementXM.begin(), acq.elementXM.end(), 0.0) /
                       static_cast<double>(elements);
  PlaneWaves waves;
  for (std::size_t t = 0; t < rows; ++t) {
    // MATLAB is column-major: row t, column e is element t + e * rows.
    double meanDelay = 0;
    for (std::size_t e = 0; e < elements; ++e) {
      meanDelay += delays[t + e * rows] / static_cast<double>(elements);
    }
    double sxy = 0, sxx = 0;
    for (std::size_t e = 0; e < elements; ++e) {
      const double dx = acq.elementXM[e] - meanX;
      sxy += dx * (delays[t + e * rows] - meanDelay);
      sxx += dx * dx;
    }
    const double slope = sxx > 0 ? sxy / sxx : 0;
    double worst = 0;
    for (std::size_t e = 0; e < elements; ++e) {
      const double fitted = meanDelay + slope * (acq.elementXM[e] - meanX);
      worst = std::max(worst, std::abs(delays[t + e * rows] - fitted));
    }
    // A plane wave's delays lie on a line; a residual of a tenth of a sample means focusing.
    if (worst > 0.1 / acq.samplingFrequencyHz) {
      reader.fail(spec + " (transmit delays): row " + std::to_string(t + 1) +
                  " is not a plane wave (delays differ from a line by up to " +
                  std::to_string(worst * 1e9) + " ns)");
    }
    const double sine = slope * acq.soundSpeedMPerS;
    if (std::abs(sine) >= 1) {
      reader.fail(spec + " (transmit delays): row " + std::to_string(t + 1) +
                  " implies a steering beyond 90 degrees");
    }
    waves.anglesRad.push_back(std::asin(sine));
    waves.centreCrossingS.push_back(meanDelay - slope * meanX);
  }
  return waves;
}

}  // namespace

ImportedRecording importMat(const std::filesystem::path& path, const MatMapping& mapping) {
  MatReader reader(path);
  const matvar_t& rf = reader.lookup(mapping.rf, "RF");
  if (rf.isComplex) {
    reader.fail(mapping.rf + " is complex: expected real RF channel data");
  }
  const RfLayout layout = layoutOf(rf, mapping, reader);

  ImportedRecording out;
  AcquisitionParams& acq = out.acq;
  acq.samplingFrequencyHz = reader.scalar(mapping.samplingFrequency, "sampling frequency");
  acq.centerFrequencyHz = reader.scalar(mapping.centerFrequency, "centre frequency");
  acq.soundSpeedMPerS = reader.scalar(mapping.soundSpeed, "sound speed");
  acq.t0S = reader.scalar(mapping.t0, "t0");
  acq.samples = static_cast<int>(layout.samples);
  // The optional parameters: a mapped variable that the file lacks counts as not given.
  std::string notes;
  if (!mapping.bandwidthPercent.empty() && !reader.has(mapping.bandwidthPercent)) {
    notes += "; " + mapping.bandwidthPercent + " absent: bandwidth unknown";
  } else if (!mapping.bandwidthPercent.empty()) {
    acq.fractionalBandwidth = reader.scalar(mapping.bandwidthPercent, "bandwidth (%)") / 100;
  }
  if (!mapping.elements.empty() && !reader.has(mapping.elements)) {
    notes += "; " + mapping.elements + " absent: element count not checked";
  } else if (!mapping.elements.empty()) {
    const double declared = reader.scalar(mapping.elements, "element count");
    if (declared != static_cast<double>(layout.elements)) {
      reader.fail(mapping.elements + " is " + std::to_string(static_cast<long long>(declared)) +
                  ", but the elements dimension of " + mapping.rf + " (" + describe(rf) + ") has " +
                  std::to_string(layout.elements));
    }
  }
  const double pitch = reader.scalar(mapping.pitch, "pitch");
  if (!(pitch > 0)) {
    reader.fail(mapping.pitch + " (pitch): expected a positive number of metres, found " +
                std::to_string(pitch));
  }
  for (std::size_t e = 0; e < layout.elements; ++e) {
    acq.elementXM.push_back((static_cast<double>(e) - (layout.elements - 1) / 2.0) * pitch);
  }
  if (const auto literal = parseNumber(mapping.angles)) {
    acq.anglesRad.assign(layout.transmits, *literal);
  } else if (mapping.angles.rfind("delays:", 0) == 0) {
    const std::string spec = mapping.angles.substr(7);
    const PlaneWaves waves =
        planeWavesFromDelays(reader.lookup(spec, "transmit delays"),
                             reader.numbers(spec, "transmit delays"), spec, acq, reader);
    acq.anglesRad = waves.anglesRad;
    // Time 0 is when a wave crosses the array centre (DESIGN.md §4), the delays' origin is the
    // first firing: t0 moves by the crossing time, which one t0 can do only if every wave has
    // the same (e.g. symmetric angles about 0 do not).
    const auto [earliest, latest] =
        std::minmax_element(waves.centreCrossingS.begin(), waves.centreCrossingS.end());
    if (*latest - *earliest > 0.1 / acq.samplingFrequencyHz) {
      reader.fail(spec + " (transmit delays): the plane waves cross the array centre at times " +
                  "up to " + std::to_string((*latest - *earliest) * 1e9) +
                  " ns apart; one t0 cannot describe them (shift each transmit's samples to a "
                  "common centre crossing first)");
    }
    acq.t0S -= *earliest;
  } else {
    acq.anglesRad = reader.numbers(mapping.angles, "transmit angles");
  }
  if (acq.anglesRad.size() != layout.transmits) {
    reader.fail(mapping.angles + " (transmit angles): " + std::to_string(acq.anglesRad.size()) +
                " angle(s), but the transmits dimension of " + mapping.rf + " has " +
                std::to_string(layout.transmits));
  }
  try {
    acq.validate();
  } catch (const std::invalid_argument& e) {
    reader.fail(std::string("the mapped acquisition is inconsistent: ") + e.what());
  }

  // The samples, reordered to [frames][transmits][elements][samples]: int16 when every value is
  // an integer in range (exactly what was recorded), float32 otherwise.
  out.frames = layout.frames;
  if (out.frames == 0 || layout.samples == 0 || layout.elements == 0 || layout.transmits == 0) {
    reader.fail(mapping.rf + " is " + describe(rf) + ": it holds no complete frame");
  }
  // Two passes over matio's copy (no third copy of a large recording): is every sample an
  // integer in the int16 range, then the reordering.
  const std::size_t total = elementCount(rf);
  bool integral = true;
  if (rf.isComplex || !withNumbers(rf, [&](const auto* data) {
        using T = std::remove_cv_t<std::remove_pointer_t<decltype(data)>>;
        if constexpr (!std::is_same_v<T, std::int16_t>) {
          for (std::size_t i = 0; i < total && integral; ++i) {
            const auto v = static_cast<double>(data[i]);
            integral = v == std::trunc(v) && v >= -32768 && v <= 32767;
          }
        }
      })) {
    reader.fail(mapping.rf + " (RF): expected real numbers, found " + describe(rf));
  }
  out.sampleType = integral ? SampleType::Int16 : SampleType::Float32;
  out.note = std::string(mapping.rf) + " is " + describe(rf) +
             (integral ? ": integer samples, kept as int16" : ": stored as float32") + notes;
  withNumbers(rf, [&](const auto* data) {
    const auto reorder = [&](auto& target) {
      using Out = typename std::remove_reference_t<decltype(target)>::value_type;
      target.resize(total);
      std::size_t next = 0;
      for (std::size_t f = 0; f < layout.frames; ++f) {
        for (std::size_t t = 0; t < layout.transmits; ++t) {
          for (std::size_t e = 0; e < layout.elements; ++e) {
            const std::size_t base =
                f * layout.frameStride + t * layout.transmitStride + e * layout.elementStride;
            for (std::size_t sample = 0; sample < layout.samples; ++sample, ++next) {
              target[next] = static_cast<Out>(data[base + sample * layout.sampleStride]);
            }
          }
        }
      }
    };
    if (integral) {
      reorder(out.int16Samples);
    } else {
      reorder(out.float32Samples);
    }
  });
  return out;
}

}  // namespace cineflow::acquire
