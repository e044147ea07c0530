#pragma once
// What py_device.cpp (DeviceArray, results) and py_import.cpp (arrays handed in) share about
// element types: one table of their names in NumPy, the array interfaces' typestr and DLPack, and
// the text of a shape. Internal to the module.

#include <dlpack.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "py_device.hpp"

namespace cineflow::python {

struct ElementInfo {
  Element element;
  const char* name;
  const char* typestr;  // the array interfaces' typestr
  DLDataType dlpack;
  std::size_t size;
};

inline constexpr std::array<ElementInfo, 4> kElements = {{
    {Element::Float32, "float32", "<f4", {kDLFloat, 32, 1}, 4},
    {Element::Int16, "int16", "<i2", {kDLInt, 16, 1}, 2},
    {Element::UInt16, "uint16", "<u2", {kDLUInt, 16, 1}, 2},
    {Element::Complex64, "complex64", "<c8", {kDLComplex, 64, 1}, 8},
}};

inline const ElementInfo& infoOf(Element element) {
  return kElements[static_cast<std::size_t>(element)];
}

// The table's entry that `matches` (a predicate on ElementInfo), or null.
template <class Match>
const ElementInfo* findElement(Match matches) {
  for (const ElementInfo& info : kElements) {
    if (matches(info)) {
      return &info;
    }
  }
  return nullptr;
}

inline std::string namesOf(std::initializer_list<Element> elements) {
  std::string names;
  for (const Element element : elements) {
    names += (names.empty() ? "" : " or ") + std::string(nameOf(element));
  }
  return names;
}

// Every element type Cineflow keeps: "float32, int16, uint16 or complex64".
inline std::string allNames() {
  std::string names;
  for (std::size_t i = 0; i < kElements.size(); ++i) {
    names += i == 0 ? "" : i + 1 == kElements.size() ? " or " : ", ";
    names += kElements[i].name;
  }
  return names;
}

// "(3, 128, 2240)"; "(5,)" for one axis.
inline std::string textOf(const std::vector<std::int64_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i > 0 ? ", " : "") + std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace cineflow::python
