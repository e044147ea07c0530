#pragma once
// Source plugins (include/cineflow/source_plugin.h): finding them, loading one, and reading its
// table. A plugin is a shared library exporting cineflow_source_plugin(); PluginLibrary owns the
// dlopen() handle (closed last, after every source made from it). Which modality images a
// plugin's frames is decided by the source factory from the stream it describes.
//
// Where plugins are looked for, in order: the folders of $CINEFLOW_PLUGIN_PATH (colon-separated),
// then <the executable's folder>/../lib/cineflow/plugins (an installed package, and the build
// tree, which puts its plugins there). Files named lib*.so.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cineflow/source_plugin.h"

namespace cineflow::acquire {

// One parameter a plugin lists for the operator (its parameters_json).
struct PluginParameter {
  std::string name, label, kind, unit;  // kind: "number", "integer", "text" or "choice"
  std::string defaultText;              // the default as JSON text ("1.5", "\"L7-4\"")
  double min = 0, max = 0;
  bool hasRange = false;
  std::vector<std::string> choices;
};

class PluginLibrary {
 public:
  // Loads the library and checks its table: the entry symbol, the ABI version, a name, every
  // function, and a parameter list that parses. Throws SourceError naming the file and what is
  // wrong ("... exports no cineflow_source_plugin", "... ABI 2, this Cineflow speaks 1").
  explicit PluginLibrary(const std::filesystem::path& path);
  ~PluginLibrary();
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  const cf_source_plugin& table() const { return *table_; }
  const std::string& name() const { return name_; }
  const std::filesystem::path& path() const { return path_; }
  const std::vector<PluginParameter>& parameters() const { return parameters_; }

 private:
  std::filesystem::path path_;
  void* handle_ = nullptr;
  const cf_source_plugin* table_ = nullptr;
  std::string name_;
  std::vector<PluginParameter> parameters_;
};

// The folders searched, in order (existing or not).
std::vector<std::filesystem::path> pluginFolders();

struct PluginListing {
  std::vector<std::shared_ptr<PluginLibrary>> plugins;  // loaded, by file name within a folder
  std::vector<std::string> refused;                     // one line per library that did not load
};
// Loads every plugin in pluginFolders(); a name found twice keeps the first.
PluginListing discoverPlugins();
// The plugin called `nameOrPath` (its name, or a library's path). Throws SourceError listing the
// plugins there are.
std::shared_ptr<PluginLibrary> findPlugin(const std::string& nameOrPath);

}  // namespace cineflow::acquire
