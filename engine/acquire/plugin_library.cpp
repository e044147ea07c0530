#include "acquire/plugin_library.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <system_error>

#include "acquire/frame_source.hpp"

namespace cineflow::acquire {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& why) {
  throw SourceError("source plugin " + path.string() + ": " + why);
}

std::vector<PluginParameter> parseParameters(const std::filesystem::path& path, const char* text) {
  std::vector<PluginParameter> parameters;
  nlohmann::json list;
  try {
    list = nlohmann::json::parse(text != nullptr ? text : "[]");
  } catch (const nlohmann::json::exception& e) {
    fail(path, std::string("parameters_json is not JSON: ") + e.what());
  }
  if (!list.is_array()) {
    fail(path, "parameters_json must be a JSON array");
  }
  for (const nlohmann::json& item : list) {
    if (!item.is_object() || !item.contains("name") || !item["name"].is_string()) {
      fail(path, "every parameter needs a \"name\" (text)");
    }
    PluginParameter p;
    p.name = item["name"].get<std::string>();
    p.label = item.value("label", p.name);
    p.kind = item.value("kind", std::string("number"));
    p.unit = item.value("unit", std::string());
    if (p.kind != "number" && p.kind != "integer" && p.kind != "text" && p.kind != "choice") {
      fail(path, "parameter " + p.name + ": kind '" + p.kind +
                     "' (expected number, integer, text or choice)");
    }
    if (item.contains("default")) {
      p.defaultText = item["default"].dump();
    }
    if (item.contains("min") && item.contains("max") && item["min"].is_number() &&
        item["max"].is_number()) {
      p.min = item["min"].get<double>();
      p.max = item["max"].get<double>();
      p.hasRange = true;
    }
    if (item.contains("choices") && item["choices"].is_array()) {
      for (const nlohmann::json& choice : item["choices"]) {
        p.choices.push_back(choice.is_string() ? choice.get<std::string>() : choice.dump());
      }
    }
    if (p.kind == "choice" && p.choices.empty()) {
      fail(path, "parameter " + p.name + ": a choice needs its \"choices\"");
    }
    parameters.push_back(std::move(p));
  }
  return parameters;
}

std::filesystem::path executableFolder() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : self.parent_path();
}

}  // namespace

PluginLibrary::PluginLibrary(const std::filesystem::path& path) : path_(path) {
  // RTLD_LOCAL: a plugin's symbols stay its own; RTLD_NOW: a missing symbol fails here, not later.
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    fail(path, std::string("cannot load: ") + (why != nullptr ? why : "unknown reason"));
  }
  try {
    void* entry = dlsym(handle_, CF_SOURCE_PLUGIN_ENTRY);
    if (entry == nullptr) {
      fail(path, "exports no " CF_SOURCE_PLUGIN_ENTRY "() (is it a Cineflow source plugin?)");
    }
    table_ = reinterpret_cast<cf_source_plugin_entry>(entry)();
    if (table_ == nullptr) {
      fail(path, CF_SOURCE_PLUGIN_ENTRY "() returned no table");
    }
    if (table_->abi_version != CF_SOURCE_PLUGIN_ABI) {
      fail(path, "built for source plugin ABI " + std::to_string(table_->abi_version) +
                     ", this Cineflow speaks ABI " + std::to_string(CF_SOURCE_PLUGIN_ABI) +
                     " (rebuild it against this Cineflow's cineflow/source_plugin.h)");
    }
    if (table_->name == nullptr || table_->name[0] == '\0') {
      fail(path, "its table has no name");
    }
    if (table_->open == nullptr || table_->describe == nullptr || table_->read_frame == nullptr ||
        table_->close == nullptr) {
      fail(path,
           "its table lacks a function (open, describe, read_frame and close are needed; start and "
           "stop may be NULL)");
    }
    name_ = table_->name;
    parameters_ = parseParameters(path, table_->parameters_json);
  } catch (...) {
    dlclose(handle_);
    throw;
  }
}

PluginLibrary::~PluginLibrary() {
  if (handle_ != nullptr) {
    dlclose(handle_);
  }
}

std::vector<std::filesystem::path> pluginFolders() {
  std::vector<std::filesystem::path> folders;
  if (const char* paths = std::getenv("CINEFLOW_PLUGIN_PATH"); paths != nullptr) {
    std::string list(paths);
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t end = std::min(list.find(':', start), list.size());
      if (end > start) {
        folders.emplace_back(list.substr(start, end - start));
      }
      start = end + 1;
    }
  }
  if (const std::filesystem::path exe = executableFolder(); !exe.empty()) {
    folders.push_back(exe.parent_path() / "lib" / "cineflow" / "plugins");
  }
  return folders;
}

PluginListing discoverPlugins() {
  PluginListing listing;
  for (const std::filesystem::path& folder : pluginFolders()) {
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error)) {
      continue;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
      const std::string file = entry.path().filename().string();
      if (file.starts_with("lib") && entry.path().extension() == ".so") {
        files.push_back(entry.path());
      }
    }
    std::sort(files.begin(), files.end());
    for (const std::filesystem::path& file : files) {
      try {
        auto plugin = std::make_shared<PluginLibrary>(file);
        const bool known = std::any_of(listing.plugins.begin(), listing.plugins.end(),
                                       [&](const auto& p) { return p->name() == plugin->name(); });
        if (!known) {
          listing.plugins.push_back(std::move(plugin));
        }
      } catch (const SourceError& e) {
        listing.refused.push_back(e.what());
      }
    }
  }
  return listing;
}

std::shared_ptr<PluginLibrary> findPlugin(const std::string& nameOrPath) {
  if (nameOrPath.find('/') != std::string::npos) {
    return std::make_shared<PluginLibrary>(nameOrPath);
  }
  PluginListing listing = discoverPlugins();
  for (auto& plugin : listing.plugins) {
    if (plugin->name() == nameOrPath) {
      return plugin;
    }
  }
  std::string known;
  for (const auto& plugin : listing.plugins) {
    known += (known.empty() ? "" : ", ") + plugin->name();
  }
  std::string folders;
  for (const auto& folder : pluginFolders()) {
    folders += (folders.empty() ? "" : ", ") + folder.string();
  }
  throw SourceError("no source plugin named '" + nameOrPath + "' (found: " +
                    (known.empty() ? std::string("none") : known) + "; looked in " + folders + ")");
}

}  // namespace cineflow::acquire
