#include "tune/tuning_history.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "base/cache_directory.hpp"
#include "base/text_file.hpp"

namespace cineflow::tune {

const VariantTiming* TuningEntry::timing(const std::string& name) const {
  for (const VariantTiming& v : variants) {
    if (v.name == name) {
      return &v;
    }
  }
  return nullptr;
}

std::filesystem::path TuningHistory::defaultPath() {
  return base::cacheDirectory() / "tuning.json";
}

TuningHistory TuningHistory::load(const std::filesystem::path& path, std::string& message) {
  message.clear();
  TuningHistory history;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return history;
  }
  try {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json json = nlohmann::json::parse(text.str());
    if (!json.is_object() || json.value("format", std::string()) != kHistoryFormat) {
      throw std::runtime_error(std::string("its format is not ") + kHistoryFormat);
    }
    for (const nlohmann::json& item : json.at("entries")) {
      TuningEntry entry;
      entry.key = {item.at("device").get<std::string>(), item.at("driver").get<std::string>(),
                   item.at("version").get<std::string>(), item.at("stage").get<std::string>(),
                   item.at("problem").get<std::string>()};
      entry.chosen = item.at("chosen").get<std::string>();
      for (const nlohmann::json& v : item.at("variants")) {
        entry.variants.push_back({v.at("name").get<std::string>(), v.at("ms").get<double>(),
                                  v.at("sd_ms").get<double>(), v.at("runs").get<int>()});
      }
      if (entry.timing(entry.chosen) == nullptr) {
        throw std::runtime_error("an entry chose '" + entry.chosen + "', which it did not measure");
      }
      history.put(std::move(entry));
    }
  } catch (const std::exception& e) {
    message = path.string() + " is not a tuning history Cineflow can use (" + e.what() +
              "): measuring afresh";
    return {};
  }
  return history;
}

void TuningHistory::save(const std::filesystem::path& path) const {
  nlohmann::json entries = nlohmann::json::array();
  for (const TuningEntry& entry : entries_) {
    nlohmann::json variants = nlohmann::json::array();
    for (const VariantTiming& v : entry.variants) {
      variants.push_back({{"name", v.name}, {"ms", v.ms}, {"sd_ms", v.sdMs}, {"runs", v.runs}});
    }
    entries.push_back({{"device", entry.key.device},
                       {"driver", entry.key.driver},
                       {"version", entry.key.version},
                       {"stage", entry.key.stage},
                       {"problem", entry.key.problem},
                       {"chosen", entry.chosen},
                       {"variants", variants}});
  }
  const nlohmann::json json = {{"format", kHistoryFormat}, {"entries", entries}};
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  base::writeFileAtomically(path.string(), json.dump(1) + "\n");
}

const TuningEntry* TuningHistory::find(const TuningKey& key) const {
  for (const TuningEntry& entry : entries_) {
    if (entry.key == key) {
      return &entry;
    }
  }
  return nullptr;
}

void TuningHistory::put(TuningEntry entry) {
  for (TuningEntry& existing : entries_) {
    if (existing.key == entry.key) {
      existing = std::move(entry);
      return;
    }
  }
  entries_.push_back(std::move(entry));
}

}  // namespace cineflow::tune
