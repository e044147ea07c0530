#include "batch/batch_plan.hpp"

#include <glob.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "cli_options.hpp"

namespace cineflow::app::batch {
namespace {

using Json = nlohmann::ordered_json;

// The headless options a plan's grid may vary: those that take a value and change the output.
const std::set<std::string> kGridOptions = {"grid",
                                            "fnumber",
                                            "apodisation",
                                            "mode",
                                            "iq-bandwidth",
                                            "iq-decimation",
                                            "prf",
                                            "ensemble",
                                            "ensemble-mode",
                                            "wall-filter",
                                            "doppler-average",
                                            "colour-box",
                                            "oct-dispersion",
                                            "oct-k-table",
                                            "oct-k-polynomial",
                                            "oct-window",
                                            "refractive-index",
                                            "received-levels",
                                            "map",
                                            "on-damaged-frame",
                                            "variant"};
const std::set<std::string> kBuiltInSources = {"sim", "sim-flow", "oct-sim"};

std::invalid_argument planError(const std::filesystem::path& file, const std::string& what) {
  return std::invalid_argument("batch plan " + file.string() + ": " + what);
}

std::uint64_t fnv1a(const std::string& text, std::uint64_t hash = 14695981039346656037ull) {
  for (const unsigned char c : text) {
    hash = (hash ^ c) * 1099511628211ull;
  }
  return hash;
}

std::string valueText(const Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace

std::vector<std::string> expandPlanInput(const std::filesystem::path& plan,
                                         const std::string& pattern) {
  if (kBuiltInSources.count(pattern) != 0) {
    return {pattern};
  }
  std::filesystem::path path(pattern);
  if (path.is_relative()) {
    path = plan.parent_path() / path;
  }
  glob_t found{};
  const int status = ::glob(path.c_str(), 0, nullptr, &found);
  std::vector<std::string> files;
  if (status == 0) {
    for (std::size_t k = 0; k < found.gl_pathc; ++k) {
      files.push_back(std::filesystem::absolute(found.gl_pathv[k]).lexically_normal().string());
    }
  }
  globfree(&found);
  if (files.empty()) {
    throw planError(plan,
                    "inputs: '" + pattern + "' names no file (looked for " + path.string() + ")");
  }
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

template <class T>
T field(const std::filesystem::path& plan, const Json& object, const char* name, T fallback) {
  const auto it = object.find(name);
  if (it == object.end()) {
    return fallback;
  }
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // A whole number within T's range: get<T>() would convert 1e300 or 2.5 silently.
    if (!it->is_number_integer() ||
        (it->is_number_unsigned()
             ? it->get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<T>::max())
             : (it->get<std::int64_t>() < std::numeric_limits<T>::min() ||
                it->get<std::int64_t>() > std::numeric_limits<T>::max()))) {
      throw planError(plan, std::string(name) + ": " + it->dump() + " is not a whole number from " +
                                std::to_string(std::numeric_limits<T>::min()) + " to " +
                                std::to_string(std::numeric_limits<T>::max()));
    }
  }
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    throw planError(plan, std::string(name) + ": " + it->dump() + " is not a " +
                              (std::is_same_v<T, std::string>
                                   ? "text"
                                   : (std::is_same_v<T, bool> ? "true or false" : "number")));
  }
}

void rejectUnknownKeys(const std::filesystem::path& plan, const Json& object,
                       const std::set<std::string>& known, const std::string& where) {
  for (const auto& [key, value] : object.items()) {
    if (known.count(key) == 0) {
      std::string list;
      for (const std::string& name : known) {
        list += list.empty() ? name : ", " + name;
      }
      throw planError(plan, where + "unknown field '" + key + "' (known: " + list + ")");
    }
  }
}

}  // namespace

std::string BatchJob::parameterText() const {
  std::string text;
  for (const auto& [name, value] : parameters) {
    if (!text.empty()) {
      text += ' ';
    }
    text += name + "=" + value;
  }
  return text;
}

std::filesystem::path BatchPlan::outputOf(const BatchJob& job) const {
  return outputDir / (job.id + ".h5");
}
std::filesystem::path BatchPlan::recordOf(const BatchJob& job) const {
  return outputDir / (job.id + ".json");
}
std::filesystem::path BatchPlan::logOf(const BatchJob& job) const {
  return outputDir / (job.id + ".log");
}

std::vector<std::string> BatchPlan::headlessArguments(const BatchJob& job,
                                                      const std::filesystem::path& output,
                                                      const std::filesystem::path& report) const {
  std::vector<std::string> arguments = {"--headless",    "--input",       job.input,
                                        "--output",      output.string(), "--report",
                                        report.string(), "--backend",     backend};
  if (frames > 0) {
    arguments.insert(arguments.end(), {"--frames", std::to_string(frames)});
  }
  if (!tune) {
    arguments.emplace_back("--no-tune");
  }
  for (const auto& [name, value] : job.parameters) {
    arguments.push_back("--" + name);
    arguments.push_back(value);
  }
  return arguments;
}

BatchPlan readBatchPlan(const std::filesystem::path& file) {
  const std::filesystem::path absolute = std::filesystem::absolute(file).lexically_normal();
  std::ifstream stream(absolute);
  if (!stream) {
    throw planError(absolute, "cannot be read");
  }
  std::ostringstream text;
  text << stream.rdbuf();
  if (!stream && !stream.eof()) {
    throw planError(absolute, "cannot be read");
  }
  return parseBatchPlan(text.str(), absolute, expandPlanInput);
}

BatchPlan parseBatchPlan(std::string_view text, const std::filesystem::path& file,
                         const PlanInputExpander& expand) {
  BatchPlan plan;
  plan.file = std::filesystem::absolute(file).lexically_normal();
  Json root = Json::parse(text, nullptr, false);
  if (root.is_discarded() || !root.is_object()) {
    throw planError(plan.file, "is not a JSON object");
  }
  rejectUnknownKeys(
      plan.file, root,
      {"schema", "inputs", "output", "backend", "frames", "tune", "parameters", "slurm"}, "");
  if (field<std::string>(plan.file, root, "schema", "") != kPlanSchema) {
    throw planError(plan.file, std::string("schema: expected \"") + kPlanSchema + "\"");
  }
  const std::string output =
      field<std::string>(plan.file, root, "output", plan.file.stem().string() + "-results");
  plan.outputDir = std::filesystem::path(output).is_relative()
                       ? (plan.file.parent_path() / output).lexically_normal()
                       : std::filesystem::path(output);
  plan.backend = field<std::string>(plan.file, root, "backend", "cpu");
  if (plan.backend != "cpu" && plan.backend != "cuda" && plan.backend != "auto") {
    throw planError(plan.file, "backend: '" + plan.backend + "' (expected cpu, cuda or auto)");
  }
  const double frames = field<double>(plan.file, root, "frames", 0);
  if (!(frames >= 0 && frames < 0x1p63) ||
      frames != static_cast<double>(static_cast<std::uint64_t>(frames))) {
    throw planError(plan.file, "frames: a whole number >= 0 (0: every frame)");
  }
  plan.frames = static_cast<std::uint64_t>(frames);
  plan.tune = field<bool>(plan.file, root, "tune", false);

  if (const auto slurm = root.find("slurm"); slurm != root.end()) {
    if (!slurm->is_object()) {
      throw planError(plan.file, "slurm: expected an object");
    }
    rejectUnknownKeys(plan.file, *slurm,
                      {"partition", "time", "account", "jobs_per_task", "cpus_per_task"},
                      "slurm: ");
    plan.slurm.partition = field<std::string>(plan.file, *slurm, "partition", "");
    plan.slurm.time = field<std::string>(plan.file, *slurm, "time", "");
    plan.slurm.account = field<std::string>(plan.file, *slurm, "account", "");
    plan.slurm.jobsPerTask = field<int>(plan.file, *slurm, "jobs_per_task", 1);
    plan.slurm.cpusPerTask = field<int>(plan.file, *slurm, "cpus_per_task", 0);
    if (plan.slurm.jobsPerTask < 1 || plan.slurm.cpusPerTask < 0) {
      throw planError(plan.file, "slurm: jobs_per_task must be >= 1 and cpus_per_task >= 0");
    }
  }

  const auto inputs = root.find("inputs");
  if (inputs == root.end() || !inputs->is_array() || inputs->empty()) {
    throw planError(plan.file, "inputs: a list of recordings (paths or globs) is needed");
  }
  // Each entry: a path or glob, or {"path": ..., "doppler_reference": ...}.
  std::vector<std::pair<std::string, std::string>> recordings;  // path, Doppler reference
  for (const Json& input : *inputs) {
    std::string pattern, reference;
    if (input.is_string()) {
      pattern = input.get<std::string>();
    } else if (input.is_object()) {
      rejectUnknownKeys(plan.file, input, {"path", "doppler_reference"}, "inputs: ");
      pattern = field<std::string>(plan.file, input, "path", "");
      reference = field<std::string>(plan.file, input, "doppler_reference", "");
      if (!reference.empty()) {
        std::filesystem::path path(reference);
        reference = (path.is_relative() ? plan.file.parent_path() / path : path)
                        .lexically_normal()
                        .string();
        if (!std::filesystem::is_regular_file(reference)) {
          throw planError(plan.file, "inputs: doppler_reference " + reference + " is not a file");
        }
      }
    }
    if (pattern.empty()) {
      throw planError(plan.file, "inputs: " + input.dump() +
                                     " is neither a path nor {\"path\": ..., "
                                     "\"doppler_reference\": ...}");
    }
    for (std::string& path : expand(plan.file, pattern)) {
      if (std::none_of(recordings.begin(), recordings.end(),
                       [&](const auto& known) { return known.first == path; })) {
        recordings.emplace_back(std::move(path), reference);
      }
    }
  }

  // The grid: every combination of the parameters' values, the first parameter varying slowest.
  std::vector<std::vector<std::string>> values;
  if (const auto parameters = root.find("parameters"); parameters != root.end()) {
    if (!parameters->is_object()) {
      throw planError(plan.file, "parameters: expected an object of option: value(s)");
    }
    for (const auto& [name, value] : parameters->items()) {
      if (kGridOptions.count(name) == 0) {
        throw planError(plan.file, "parameters: '" + name +
                                       "' is not a headless processing option a plan may vary");
      }
      std::vector<std::string> texts;
      for (const Json& v : value.is_array() ? value : Json::array({value})) {
        if (!v.is_string() && !v.is_number()) {
          throw planError(plan.file,
                          "parameters: " + name + ": " + v.dump() + " is not a number or text");
        }
        texts.push_back(valueText(v));
      }
      if (texts.empty()) {
        throw planError(plan.file, "parameters: " + name + " lists no value");
      }
      plan.parameterNames.push_back(name);
      values.push_back(std::move(texts));
    }
  }
  // Bounds before allocation: a grid multiplies.
  std::size_t combinations = 1;
  for (const auto& v : values) {
    if (__builtin_mul_overflow(combinations, v.size(), &combinations) ||
        combinations > kMaxPlanJobs) {
      combinations = kMaxPlanJobs + 1;
      break;
    }
  }
  if (recordings.size() > kMaxPlanJobs / combinations) {
    throw planError(plan.file,
                    std::to_string(recordings.size()) + " recordings x " +
                        (combinations > kMaxPlanJobs ? "more than " + std::to_string(kMaxPlanJobs)
                                                     : std::to_string(combinations)) +
                        " option sets: more than the " + std::to_string(kMaxPlanJobs) +
                        " jobs a plan may hold (split it)");
  }
  for (const auto& [recording, reference] : recordings) {
    for (std::size_t combination = 0; combination < combinations; ++combination) {
      BatchJob job;
      job.input = recording;
      job.dopplerReference = reference;
      std::size_t rest = combination;
      for (std::size_t p = values.size(); p-- > 0;) {
        job.parameters.emplace(job.parameters.begin(), plan.parameterNames[p],
                               values[p][rest % values[p].size()]);
        rest /= values[p].size();
      }
      std::uint64_t hash = fnv1a(recording);
      for (const auto& [name, value] : job.parameters) {
        hash = fnv1a(value, fnv1a(name, fnv1a("\n", hash)));
      }
      hash = fnv1a(plan.backend + " " + std::to_string(plan.frames) + (plan.tune ? " tune" : ""),
                   hash);
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
      job.id = std::filesystem::path(recording).stem().string() + "-" + hex;
      // The options must be ones headless mode accepts, with values it accepts: a typo fails
      // here, before hundreds of jobs start.
      std::vector<std::string> arguments = plan.headlessArguments(job, "check.h5", "check.json");
      arguments.insert(arguments.begin(), "cineflow");
      std::vector<char*> argv;
      for (std::string& argument : arguments) {
        argv.push_back(argument.data());
      }
      try {
        parseCommandLine(static_cast<int>(argv.size()), argv.data());
      } catch (const std::invalid_argument& e) {
        throw planError(plan.file, "parameters: " + job.parameterText() + ": " + e.what());
      }
      plan.jobs.push_back(std::move(job));
    }
  }
  return plan;
}

}  // namespace cineflow::app::batch
