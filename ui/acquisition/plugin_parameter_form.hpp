#pragma once
// A source plugin's parameters as a form (acquire::PluginParameter, from the plugin's
// parameters_json): a spin box with the plugin's range and unit for a number or an integer, a
// line edit for text, a drop-down for a choice, each starting at the plugin's default. values()
// is the JSON object the plugin's open() receives.

#include <string>
#include <vector>

#include <QWidget>

#include "acquire/plugin_library.hpp"

namespace cineflow::ui {

class PluginParameterForm : public QWidget {
  Q_OBJECT

 public:
  explicit PluginParameterForm(const std::vector<acquire::PluginParameter>& parameters,
                               QWidget* parent = nullptr);

  // {"name": value, ...} as compact JSON text.
  std::string values() const;

 private:
  struct Field {
    acquire::PluginParameter parameter;
    QWidget* editor = nullptr;
  };
  std::vector<Field> fields_;
};

}  // namespace cineflow::ui
