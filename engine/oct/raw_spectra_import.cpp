#include "oct/raw_spectra_import.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <system_error>
#include <vector>

#include "oct/oct_params.hpp"
#include "oct/oct_writer.hpp"

namespace cineflow::oct {
namespace {

using Json = nlohmann::json;

// Every key a description may hold (the header lists what each means).
const std::set<std::string, std::less<>> kKnownKeys = {"samples",
                                                       "ascans",
                                                       "bit_depth",
                                                       "header_bytes",
                                                       "sample_format",
                                                       "wavelength_first_m",
                                                       "wavelength_last_m",
                                                       "wavelength_file",
                                                       "wavelength_polynomial_m",
                                                       "centre_wavelength_m",
                                                       "bandwidth_m",
                                                       "bscans_per_volume",
                                                       "bidirectional",
                                                       "flyback_ascans",
                                                       "lateral_step_m",
                                                       "elevation_step_m",
                                                       "line_rate_hz",
                                                       "dispersion_a2_rad",
                                                       "dispersion_a3_rad",
                                                       "dispersion_centre_wavelength_m"};

std::string numberText(double value) {
  return acquire::numberText(value);
}

std::string knownKeysText() {
  std::string text;
  for (const std::string& key : kKnownKeys) {
    text += text.empty() ? key : ", " + key;
  }
  return text;
}

// The description's keys, typed, each message starting with the description's name.
class Fields {
 public:
  Fields(const Json& object, std::string name) : object_(object), name_(std::move(name)) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw RawSpectraError(name_ + ": " + problem);
  }
  bool has(const char* key) const { return object_.contains(key); }

  const Json& required(const char* key, const char* meaning) const {
    if (!has(key)) {
      fail(std::string("missing key \"") + key + "\" (" + meaning + ")");
    }
    return object_.at(key);
  }

  double number(const char* key, const Json& value) const {
    if (!value.is_number()) {
      fail(std::string("key \"") + key + "\": expected a number, found " + value.dump());
    }
    const double number = value.get<double>();
    if (!std::isfinite(number)) {
      fail(std::string("key \"") + key + "\": expected a finite number");
    }
    return number;
  }
  double number(const char* key, const char* meaning) const {
    return number(key, required(key, meaning));
  }
  double optionalNumber(const char* key, double absent) const {
    return has(key) ? number(key, object_.at(key)) : absent;
  }

  // A whole number in [lo, hi] (2048 and 2048.0 alike); hi = kNoLimit: any from lo on.
  static constexpr std::int64_t kNoLimit = std::int64_t{1} << 53;
  std::int64_t whole(const char* key, const Json& value, std::int64_t lo, std::int64_t hi) const {
    const double number = value.is_number() ? value.get<double>() : NAN;
    if (!value.is_number() || number != std::floor(number) || number < static_cast<double>(lo) ||
        number > static_cast<double>(hi)) {
      const std::string range = hi == kNoLimit
                                    ? ">= " + std::to_string(lo)
                                    : "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
      fail(std::string("key \"") + key + "\": expected a whole number " + range + ", found " +
           value.dump());
    }
    return value.is_number_integer() ? value.get<std::int64_t>()
                                     : static_cast<std::int64_t>(number);
  }
  int wholeInt(const char* key, const char* meaning, int lo, int hi) const {
    return static_cast<int>(whole(key, required(key, meaning), lo, hi));
  }

  bool boolean(const char* key, const char* meaning) const {
    const Json& value = required(key, meaning);
    if (value.is_boolean()) {
      return value.get<bool>();
    }
    return whole(key, value, 0, 1) == 1;
  }

  std::string text(const char* key, const Json& value) const {
    if (!value.is_string()) {
      fail(std::string("key \"") + key + "\": expected a string, found " + value.dump());
    }
    return value.get<std::string>();
  }

  const Json& at(const char* key) const { return object_.at(key); }

 private:
  const Json& object_;
  std::string name_;
};

std::string_view trimmed(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && space(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && space(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

// One wavelength in metres per line; blank lines and lines starting with '#' are skipped.
std::vector<double> readWavelengthFile(const std::filesystem::path& path) {
  std::ifstream file(path);
  if (!file) {
    throw RawSpectraError(path.string() + ": cannot open the wavelength file (" +
                          std::strerror(errno) + ")");
  }
  std::vector<double> table;
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    const std::string_view text = trimmed(line);
    if (text.empty() || text.front() == '#') {
      continue;
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
      throw RawSpectraError(path.string() + ": line " + std::to_string(number) + ": \"" +
                            std::string(text) + "\" is not a wavelength in metres");
    }
    table.push_back(value);
  }
  if (file.bad()) {
    throw RawSpectraError(path.string() + ": reading the wavelength file failed");
  }
  return table;
}

std::vector<double> wavelengthTable(const Fields& fields, int samples,
                                    const std::filesystem::path& folder) {
  const bool linear = fields.has("wavelength_first_m") || fields.has("wavelength_last_m");
  const bool fromFile = fields.has("wavelength_file");
  const bool polynomial = fields.has("wavelength_polynomial_m");
  const int forms = int{linear} + int{fromFile} + int{polynomial};
  if (forms != 1) {
    fields.fail(std::string(forms == 0 ? "missing" : "more than one") +
                " wavelength calibration: give exactly one of wavelength_first_m + "
                "wavelength_last_m, wavelength_file or wavelength_polynomial_m");
  }
  if (linear) {
    const char* meaning = "the wavelength of the first or last sample, metres";
    return linearWavelengths(samples, fields.number("wavelength_first_m", meaning),
                             fields.number("wavelength_last_m", meaning));
  }
  if (fromFile) {
    const std::filesystem::path file =
        folder / fields.text("wavelength_file", fields.at("wavelength_file"));
    std::vector<double> table = readWavelengthFile(file);
    if (table.size() != static_cast<std::size_t>(samples)) {
      throw RawSpectraError(file.string() + ": holds " + std::to_string(table.size()) +
                            " wavelengths, expected one per sample (" + std::to_string(samples) +
                            ")");
    }
    return table;
  }
  const Json& coefficients = fields.at("wavelength_polynomial_m");
  if (!coefficients.is_array() || coefficients.empty()) {
    fields.fail(
        "key \"wavelength_polynomial_m\": expected a list of coefficients [c0, c1, ...] "
        "in metres, found " +
        coefficients.dump());
  }
  std::vector<double> c;
  for (const Json& value : coefficients) {
    c.push_back(fields.number("wavelength_polynomial_m", value));
  }
  std::vector<double> table(static_cast<std::size_t>(samples));
  for (int i = 0; i < samples; ++i) {
    double lambda = 0;  // Horner: c0 + i (c1 + i (c2 + ...))
    for (auto k = c.rbegin(); k != c.rend(); ++k) {
      lambda = lambda * i + *k;
    }
    table[static_cast<std::size_t>(i)] = lambda;
  }
  return table;
}

}  // namespace

RawSpectraDescription parseRawSpectraDescription(std::string_view json, const std::string& name,
                                                 const std::filesystem::path& folder) {
  Json root;
  try {
    root = Json::parse(json);
  } catch (const Json::exception& e) {  // a syntax error, or a number past double's range
    throw RawSpectraError(name + ": not valid JSON (" + e.what() + ")");
  }
  const Fields fields(root, name);
  if (!root.is_object()) {
    fields.fail("expected a JSON object { \"samples\": ..., ... }");
  }
  for (const auto& item : root.items()) {
    if (!kKnownKeys.contains(item.key())) {
      fields.fail("unknown key \"" + item.key() + "\" (known keys: " + knownKeysText() + ")");
    }
  }

  RawSpectraDescription description;
  OctAcquisition& acq = description.acquisition;
  acq.samples = fields.wholeInt("samples", "samples per A-scan", 16, 65536);
  acq.ascans = fields.wholeInt("ascans", "A-scans per B-scan, flyback included", 1, 1 << 20);
  acq.bitDepth = fields.wholeInt("bit_depth", "12 or 16", 1, 64);
  if (acq.bitDepth != 12 && acq.bitDepth != 16) {
    fields.fail("key \"bit_depth\": expected 12 or 16, found " + std::to_string(acq.bitDepth));
  }
  if (fields.has("header_bytes")) {
    description.headerBytes = static_cast<std::uint64_t>(
        fields.whole("header_bytes", fields.at("header_bytes"), 0, Fields::kNoLimit));
  }
  if (fields.has("sample_format")) {
    const std::string format = fields.text("sample_format", fields.at("sample_format"));
    if (format == "uint16") {
      description.sampleFormat = RawSampleFormat::Uint16LittleEndian;
    } else if (format == "uint16be") {
      description.sampleFormat = RawSampleFormat::Uint16BigEndian;
    } else {
      fields.fail(
          "key \"sample_format\": expected \"uint16\" (little-endian) or \"uint16be\", "
          "found \"" +
          format + "\"");
    }
  }
  acq.wavelengthM = wavelengthTable(fields, acq.samples, folder);
  acq.centreWavelengthM = fields.number("centre_wavelength_m", "the source's centre wavelength");
  acq.bandwidthM = fields.optionalNumber("bandwidth_m", 0.0);
  acq.bscansPerVolume =
      fields.wholeInt("bscans_per_volume", "B-scans per volume, 0: B-scans only", 0, 1 << 20);
  acq.bidirectional = fields.boolean("bidirectional", "true when every other B-scan runs back");
  acq.flybackAscans = fields.wholeInt("flyback_ascans",
                                      "A-scans not imaged at the end of each "
                                      "B-scan, 0: none",
                                      0, acq.ascans - 1);
  acq.lateralStepM = fields.number("lateral_step_m", "metres between A-scans");
  acq.elevationStepM = fields.number("elevation_step_m", "metres between B-scans");
  acq.lineRateHz = fields.optionalNumber("line_rate_hz", 0.0);
  if (fields.has("dispersion_a2_rad") || fields.has("dispersion_a3_rad")) {
    description.dispersion =
        OctDispersion{fields.optionalNumber("dispersion_a2_rad", 0.0),
                      fields.optionalNumber("dispersion_a3_rad", 0.0),
                      fields.optionalNumber("dispersion_centre_wavelength_m", 0.0)};
  }
  try {
    acq.validate();
    if (description.dispersion) {  // refused here rather than when the recording opens
      OctParams params;
      params.a2 = description.dispersion->a2Rad;
      params.a3 = description.dispersion->a3Rad;
      params.dispersionCentreM = description.dispersion->centreWavelengthM;
      params.validate(acq);
    }
  } catch (const std::invalid_argument& e) {
    fields.fail(e.what());
  }
  return description;
}

RawSpectraDescription readRawSpectraDescription(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw RawSpectraError(path.string() + ": cannot open the description (" + std::strerror(errno) +
                          ")");
  }
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) {
    throw RawSpectraError(path.string() + ": reading the description failed");
  }
  const std::filesystem::path folder =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  return parseRawSpectraDescription(text.str(), path.string(), folder);
}

std::uint64_t rawFrameCount(const std::filesystem::path& in,
                            const RawSpectraDescription& description) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(in, ec)) {
    throw RawSpectraError(
        in.string() + ": " +
        (std::filesystem::exists(in, ec) ? "not a regular file" : "file not found"));
  }
  const std::uint64_t size = std::filesystem::file_size(in, ec);
  if (ec) {
    throw RawSpectraError(in.string() + ": cannot read its size (" + ec.message() + ")");
  }
  const std::uint64_t header = description.headerBytes;
  const std::uint64_t frameBytes = description.frameBytes();
  const std::string frameText =
      std::to_string(frameBytes) + " bytes (" + std::to_string(description.acquisition.ascans) +
      " A-scans x " + std::to_string(description.acquisition.samples) + " samples x 2 bytes)";
  if (size < header) {
    throw RawSpectraError(in.string() + " has " + std::to_string(size) + " bytes, fewer than its " +
                          std::to_string(header) + "-byte header");
  }
  const std::uint64_t data = size - header;
  if (data == 0) {
    throw RawSpectraError(in.string() + " has no frames after its " + std::to_string(header) +
                          "-byte header (a frame is " + frameText + ")");
  }
  if (data % frameBytes != 0) {
    throw RawSpectraError(
        in.string() + " has " + std::to_string(data) + " bytes after its " +
        std::to_string(header) + "-byte header: " +
        numberText(static_cast<double>(data) / static_cast<double>(frameBytes)) + " frames of " +
        frameText + "; a partial frame is not imported (check samples, ascans and header_bytes)");
  }
  return data / frameBytes;
}

namespace {

// The file's bytes of one frame as native uint16 counts.
void decodeFrame(const std::vector<unsigned char>& bytes, bool bigEndian,
                 std::vector<std::uint16_t>& frame) {
  if (!bigEndian && std::endian::native == std::endian::little) {
    std::memcpy(frame.data(), bytes.data(), bytes.size());
    return;
  }
  for (std::size_t i = 0; i < frame.size(); ++i) {
    const unsigned first = bytes[2 * i], second = bytes[2 * i + 1];
    frame[i] =
        static_cast<std::uint16_t>(bigEndian ? (first << 8) | second : (second << 8) | first);
  }
}

}  // namespace

std::vector<std::uint16_t> readRawSpectraFrame(const std::filesystem::path& in,
                                               const RawSpectraDescription& description,
                                               std::uint64_t index) {
  const std::uint64_t frames = rawFrameCount(in, description);
  if (index >= frames) {
    throw RawSpectraError(in.string() + ": no frame " + std::to_string(index) + " (it holds " +
                          std::to_string(frames) + ")");
  }
  std::ifstream file(in, std::ios::binary);
  std::vector<unsigned char> bytes(description.frameBytes());
  if (!file ||
      !file.seekg(static_cast<std::streamoff>(description.headerBytes +
                                              index * description.frameBytes())) ||
      !file.read(reinterpret_cast<char*>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()))) {
    throw RawSpectraError(in.string() + ": reading frame " + std::to_string(index) + " failed (" +
                          std::strerror(errno) + ")");
  }
  std::vector<std::uint16_t> frame(description.acquisition.samplesPerFrame());
  decodeFrame(bytes, description.sampleFormat == RawSampleFormat::Uint16BigEndian, frame);
  return frame;
}

std::uint64_t importRawSpectra(const std::filesystem::path& in,
                               const RawSpectraDescription& description,
                               const std::filesystem::path& out, const store::AttributeMap& extra,
                               const acquire::ProgressFn& progress) {
  const std::uint64_t frames = rawFrameCount(in, description);
  if (const int perVolume = description.acquisition.bscansPerVolume;
      static_cast<std::uint64_t>(perVolume) > frames) {
    throw RawSpectraError(in.string() + " holds " + std::to_string(frames) +
                          " frame(s), fewer than one volume of " + std::to_string(perVolume) +
                          " B-scans (bscans_per_volume; 0 for B-scans only)");
  }
  std::ifstream file(in, std::ios::binary);
  if (!file || !file.seekg(static_cast<std::streamoff>(description.headerBytes))) {
    throw RawSpectraError(in.string() + ": cannot open for reading (" + std::strerror(errno) + ")");
  }
  OctRecordingWriter writer(out, description.acquisition, frames, extra, description.dispersion);
  const std::size_t frameBytes = description.frameBytes();
  std::vector<unsigned char> bytes(frameBytes);
  std::vector<std::uint16_t> frame(description.acquisition.samplesPerFrame());
  const bool bigEndian = description.sampleFormat == RawSampleFormat::Uint16BigEndian;
  for (std::uint64_t index = 0; index < frames; ++index) {
    if (!file.read(reinterpret_cast<char*>(bytes.data()),
                   static_cast<std::streamsize>(frameBytes))) {
      throw RawSpectraError(in.string() + ": reading frame " + std::to_string(index) +
                            " failed (the file shrank while being read?)");
    }
    decodeFrame(bytes, bigEndian, frame);
    writer.append(frame);
    if (progress) {
      progress(static_cast<double>(index + 1) / static_cast<double>(frames),
               "converting " + in.filename().string());
    }
  }
  writer.finish();
  return frames;
}

}  // namespace cineflow::oct
